// The front door of core/audit: what the faces (CLI, extension, MCP server, test kit) may use.
export { AUDIT_CASES } from './auditCases';
export { auditCaseTitle, auditGroupSaid, auditResultWorded, auditWorded } from './auditWords';
export { auditCurl, auditGroup, auditJson, auditJunit, auditMarkdown, auditSummaryMarkdown } from './auditReport';
export {
  type AuditCaseResult,
  AuditRefused,
  type AuditSummary,
  AuditTargetUnreachable,
  checkTarget,
  runAudit,
} from './receiverAudit';
export { signerAuditIssuer } from './signerIssuer';
export {
  AUDIT_GENUINE_DELIVERY,
  kidOf,
  matchAdvice,
  matchAdviceSaid,
  notServedThere,
  refusalOf,
  refusalSaid,
  refusalText,
  type SigningKey,
  signingKeyText,
} from './trustMismatch';

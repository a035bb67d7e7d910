// The front door of core/assistant: what the faces (CLI, extension, MCP server, test kit) may use.
export {
  type AssistantContext,
  type AssistantEnvironment,
  type AssistantWorkflows,
  type AuditSetup,
  type BilledStartDetails,
  type DeliverySource,
  type SignedForTarget,
  type SignerInfo,
  type TargetTlsChoice,
} from './assistantContext';
export { type AssistantTool, checkToolReach, ToolRefused } from './assistantTool';
export { auditTargetAsked, auditTargetQuestion } from './auditTargetRule';
export { billedStartAsked, billedStartQuestion } from './billedStartRule';
export { readFixtureIn } from './fixtureFile';
export { HistoryFileReader } from './historyFileReader';
export { knownSecretValues, RecentSecrets } from './knownSecrets';
export { ASSISTANT_TOOLS, previewTool, runTool, type WordedPreview } from './toolRegistry';

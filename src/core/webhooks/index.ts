// The front door of core/webhooks: what the faces (CLI, extension, MCP server, test kit) may use.
export { type DeliveryHistory, type DeliveryHistoryOptions, type DeliveryQuery } from './DeliveryHistory';
export { DEFAULT_MAX_BODY } from './Receiver';
export { type TrustedIssuer } from './Verifier';
export { checkWorded } from './verificationSteps';
export { type DeliveryRecord, forwardsOf } from './deliveryRecord';
export { eraseHistoryFile } from './eraseHistory';
export { forwardFailed } from './forwardAnswer';
export { Forwarder } from './forwardFanOut';
export {
  forwardEverything,
  type ForwardRule,
  forwardTargetTls,
  ForwardRuleError,
  parseForwardFlag,
  parseForwardRules,
  ruleMatches,
  withCaFiles,
} from './forwardRules';
export { forwardLine } from './forwardText';
export { fileModeWarning, HISTORY_FILE_MODE, octal } from './historyFile';
export { historyHolderSaid, HistoryInUse } from './historyLock';
export { answerExcerpt, appAcknowledged } from './replayAnswer';
export { type ReplayAnswer } from './replayLog';
export {
  faultMarkHeader,
  faultMarkSaid,
  faultMarkText,
  SANDBOX_FAULT_HEADER,
  type SandboxFaultMark,
} from './sandboxFaultMark';
export { signedHereClaims } from './signedHereClaim';
export { buildTestWebhookRequest, sendTestWebhook, testWebhookIds } from './testWebhookRequest';
export { type TestWebhookOutcome } from './testWebhookOutcome';

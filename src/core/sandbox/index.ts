// The front door of core/sandbox: what the faces (CLI, extension, MCP server, test kit) may use.
export { Sandbox, type SandboxInfo } from './Sandbox';
export { givenSecretProblem, newControlSecret, SANDBOX_SECRET_ENV } from './sandboxAccess';
export { type AuditIssuer, SandboxControlClient, type SandboxTrust } from './sandboxControlClient';
export { FAULT_KINDS } from './sandboxFaults';
export {
  DELIVERY_FAULT_KINDS,
  type DeliveryFaultKind,
  type DeliveryFaultRequest,
  type DeliveryFaults,
  isDeliveryFaultKind,
  MAX_FAULT_DELAY_MS,
  MAX_STORM_FACTOR,
  newSeed,
  withDeliveryFault,
} from './deliveryFaults';
export { planDeliveries, type PlannedDelivery } from './deliveryPlan';
export { MAX_SEED } from './seededRandom';
export { type LoadedProfile, loadSandboxProfile, MAX_PROFILE_BYTES, type SandboxProfile } from './sandboxProfile';
export { MAX_REQUEST_BYTES, sizeInWords } from './sandboxRequest';
export { SANDBOX_PASSWORD, SANDBOX_USERNAME } from './sandboxSeed';
export { proveSandboxClaim } from './sandboxClaim';
export {
  readSandboxState,
  sandboxStateFile,
  SandboxStateError,
  STATE_DIR_ENV,
  userStateDir,
  writeSandboxState,
  type SandboxState,
} from './sandboxState';
export { deliveryFaultsSaid } from './deliveryFaultsText';

// The front door of core/workflows: what the faces (CLI, extension, MCP server, test kit) may use.
export {
  DEFAULT_FIND_WORKFLOWS_PATH,
  findWorkflowsUrl,
  prepareStart,
  type StartRequest,
  WorkflowClient,
} from './WorkflowClient';
export { WorkflowFollower } from './WorkflowFollower';
export { type PollOutcome, WorkflowPoller } from './WorkflowPoller';
export { errorMark, type TrackedWorkflow, WorkflowStore } from './WorkflowStore';
export { type BilledStartOutcome, type StartOutcomeUnknown, startBilledWorkflow } from './billedStart';
export { checkCorrelationId, findByCorrelationId, generateCorrelationId, MAX_CORRELATION_ID } from './correlationId';
export { productRefusalAdvice } from './productSuggestion';
export { isTerminal, type Product, type Workflow, type WorkflowEnvelope, type WorkflowStatus } from './workflowTypes';

// The package.json entry (contributes.languageModelTools) of each assistant tool, made from its one definition in
// core: test/unit/assistant/toolManifest.test.ts fails when the manifest and the definitions differ. Pure: no vscode.
// What a person reads in the tool picker (displayName, userDescription) is a %key% of package.nls.json, so it can be
// translated; the modelDescription and the schema are read by the model and stay English, as the MCP tools do.
import { ASSISTANT_TOOLS, type AssistantTool } from '../../core/assistant';

/** Codicons for VS Code's tool picker. */
const ICONS: Record<string, string> = {
  wfs_environment: '$(server-environment)',
  wfs_list_deliveries: '$(list-unordered)',
  wfs_get_delivery: '$(inspect)',
  wfs_explain_refusal: '$(shield)',
  wfs_wait_for_delivery: '$(watch)',
  wfs_replay_to_app: '$(debug-restart)',
  wfs_send_event: '$(send)',
  wfs_audit_receiver: '$(shield)',
  wfs_find_workflows: '$(search)',
  wfs_workflow_status: '$(pulse)',
  wfs_start_sandbox_workflow: '$(play)',
  wfs_start_billed_workflow: '$(credit-card)',
  wfs_check_contract: '$(checklist)',
};

/** Only tools that read are offered in Restricted Mode: the others send, or start a workflow. */
const SENDING_WHEN = 'isWorkspaceTrusted';

function nlsKey(tool: string, field: 'displayName' | 'userDescription'): string {
  return `tool.${tool}.${field}`;
}

function toolContribution(t: AssistantTool<never, unknown>): Record<string, unknown> {
  return {
    name: t.name,
    displayName: `%${nlsKey(t.name, 'displayName')}%`,
    toolReferenceName: t.name,
    canBeReferencedInPrompt: true,
    icon: ICONS[t.name] ?? '$(tools)',
    userDescription: `%${nlsKey(t.name, 'userDescription')}%`,
    modelDescription: t.description,
    tags: ['workflow-service', 'webhooks', t.effect],
    ...(t.effect === 'reads' ? {} : { when: SENDING_WHEN }),
    inputSchema: t.inputSchema,
  };
}

export function toolContributions(): Record<string, unknown>[] {
  return ASSISTANT_TOOLS.map(toolContribution);
}

/** The package.nls.json entries the tool contributions' %key%s name, in English. */
export function toolNlsEntries(): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const t of ASSISTANT_TOOLS) {
    entries[nlsKey(t.name, 'displayName')] = t.title;
    entries[nlsKey(t.name, 'userDescription')] = t.summary;
  }
  return entries;
}

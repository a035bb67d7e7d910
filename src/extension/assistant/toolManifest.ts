// The package.json entry (contributes.languageModelTools) of each assistant tool, made from its one definition in
// core: test/unit/assistant/toolManifest.test.ts fails when the manifest and the definitions differ. Pure: no vscode.
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

function toolContribution(t: AssistantTool<never, unknown>): Record<string, unknown> {
  return {
    name: t.name,
    displayName: t.title,
    toolReferenceName: t.name,
    canBeReferencedInPrompt: true,
    icon: ICONS[t.name] ?? '$(tools)',
    userDescription: t.summary,
    modelDescription: t.description,
    tags: ['workflow-service', 'webhooks', t.effect],
    ...(t.effect === 'reads' ? {} : { when: SENDING_WHEN }),
    inputSchema: t.inputSchema,
  };
}

export function toolContributions(): Record<string, unknown>[] {
  return ASSISTANT_TOOLS.map(toolContribution);
}

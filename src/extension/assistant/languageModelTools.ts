// The assistant's tools as VS Code language model tools (agent mode, `#` references, vscode.lm.invokeTool): each is
// contributed in package.json (languageModelTools, generated from the same definitions: test/unit/assistant checks
// they agree) and registered here. A tool that sends or starts says exactly what it will send where before VS Code
// asks the user to continue; a billed start also asks in its own modal, which no "always allow" skips.
import * as vscode from 'vscode';
import { ASSISTANT_TOOLS, type AssistantContext, type AssistantTool, previewTool, runTool } from '../../core/assistant';
import { withoutSaids } from '../../core';
import { confirmationMessages, invocationMessage as invocationMessageOf } from './toolWords';

export class LanguageModelToolAdapter implements vscode.LanguageModelTool<Record<string, unknown>> {
  constructor(
    private readonly tool: AssistantTool<never, unknown>,
    private readonly ctx: AssistantContext,
  ) {}

  async prepareInvocation(
    options: vscode.LanguageModelToolInvocationPrepareOptions<Record<string, unknown>>,
  ): Promise<vscode.PreparedToolInvocation> {
    const invocationMessage = invocationMessageOf(this.tool, vscode.l10n);
    if (this.tool.effect === 'reads') return { invocationMessage };
    // In Restricted Mode the run refuses before anything is sent: nothing to confirm.
    try {
      this.ctx.checkSending();
    } catch {
      return { invocationMessage };
    }
    const preview = await previewTool(this.tool.name, options.input, this.ctx);
    // No preview means the run will refuse (and say why) before anything is sent: nothing to confirm.
    if (!preview) return { invocationMessage };
    // What the person reads before anything is sent: core's words in the user's language, the values as they are.
    return { invocationMessage, confirmationMessages: confirmationMessages(preview, vscode.l10n) };
  }

  async invoke(
    options: vscode.LanguageModelToolInvocationOptions<Record<string, unknown>>,
    token: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelToolResult> {
    const abort = new AbortController();
    const sub = token.onCancellationRequested(() => abort.abort());
    try {
      const outcome = await runTool(this.tool.name, options.input, this.ctx, abort.signal);
      // An error the model can act on is thrown with its words (VS Code's guidance for tools); its details (the
      // exact command of a refused billed start) go with them.
      if (!outcome.ok)
        throw new Error(
          Object.keys(outcome.details).length
            ? `${outcome.error}\n${JSON.stringify(outcome.details, withoutSaids, 2)}`
            : outcome.error,
        );
      return new vscode.LanguageModelToolResult([
        new vscode.LanguageModelTextPart(JSON.stringify(outcome.result, withoutSaids, 2)),
      ]);
    } finally {
      sub.dispose();
    }
  }
}

export function registerLanguageModelTools(ctx: AssistantContext): vscode.Disposable[] {
  return ASSISTANT_TOOLS.map((tool) => vscode.lm.registerTool(tool.name, new LanguageModelToolAdapter(tool, ctx)));
}

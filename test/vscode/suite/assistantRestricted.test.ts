// The assistant's tools in Restricted Mode (runOffline.mjs opens this window untrusted; skipped in the trusted run):
// the tools that send or start are contributed only for trusted workspaces, refuse if called all the same, and send
// nothing; the reading tools work; the MCP server VS Code would start is read-only.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../hostExtension/extension';
import { ASSISTANT_TOOLS } from '../../../src/core/assistant/toolRegistry';
import { mcpServerDefinition } from '../../../src/extension/assistant/mcpServerProvider';
import { RecordingServer } from '../../unit/helpers/recordingServer';
import { EXTENSION_ID, extensionApi, setSetting } from './helpers';

describe("Restricted Mode: the assistant's tools", function () {
  let api: ExtensionApi;
  let app: RecordingServer;
  before(async function () {
    if (!process.env.WFS_EXPECT_UNTRUSTED) return this.skip();
    assert.equal(vscode.workspace.isTrusted, false, 'this window must open the folder untrusted');
    api = await extensionApi();
    app = new RecordingServer();
    await setSetting('receiver.forwardTo', `${await app.start()}/hooks`);
  });
  after(async () => {
    if (!process.env.WFS_EXPECT_UNTRUSTED) return;
    await setSetting('receiver.forwardTo', undefined);
    await app.stop();
  });

  it('the tools that send or start are offered only where the workspace is trusted', () => {
    const contributed = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON.contributes.languageModelTools as {
      name: string;
      when?: string;
    }[];
    for (const tool of ASSISTANT_TOOLS) {
      const c = contributed.find((t) => t.name === tool.name);
      assert.equal(c?.when, tool.effect === 'reads' ? undefined : 'isWorkspaceTrusted', tool.name);
    }
  });

  it('the reading tools work, and say that sending waits for trust', async () => {
    const r = await vscode.lm.invokeTool('wfs_environment', { input: {}, toolInvocationToken: undefined });
    const env = JSON.parse((r.content[0] as vscode.LanguageModelTextPart).value) as { sending: { missing?: string } };
    assert.match(env.sending.missing ?? '', /Restricted Mode/);
    await vscode.lm.invokeTool('wfs_list_deliveries', { input: {}, toolInvocationToken: undefined });
  });

  it('a sending tool called all the same refuses, with nothing sent', async () => {
    await assert.rejects(
      Promise.resolve(
        vscode.lm.invokeTool('wfs_send_event', {
          input: { to: 'app', topic: 'workflow/completed' },
          toolInvocationToken: undefined,
        }),
      ),
      /Restricted Mode/,
    );
    await assert.rejects(
      Promise.resolve(
        vscode.lm.invokeTool('wfs_start_billed_workflow', {
          input: { sessionId: 'sess-demo-staged', service: 'Appraisal', model: 'Standard' },
          toolInvocationToken: undefined,
        }),
      ),
      /Restricted Mode/,
    );
    assert.equal(app.requests.length, 0, 'nothing reached the app');
  });

  it('the MCP server VS Code would start offers only the reading tools', () => {
    const def = mcpServerDefinition(api, vscode.extensions.getExtension(EXTENSION_ID)!.extensionUri);
    assert.ok(def.args.includes('--read-only'), def.args.join(' '));
  });
});

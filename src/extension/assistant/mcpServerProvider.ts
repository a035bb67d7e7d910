// `wfs mcp` offered to VS Code's MCP support with no configuration (contributes.mcpServerDefinitionProviders): the
// CLI bundled in the extension, run by the extension host's own Node (process.execPath, which is Electron in the
// desktop app: ELECTRON_RUN_AS_NODE makes it Node). It reads this window's history file read-only and sends to the
// forward target the user configured. The definition VS Code keeps holds no secret: the sandbox's control secret is
// added only when VS Code starts the server (resolveMcpServerDefinition). In Restricted Mode it runs read-only.
import * as vscode from 'vscode';
import { SANDBOX_ENVIRONMENT } from '../../core/environments';
import { SANDBOX_SECRET_ENV } from '../../core/sandbox';
import { TOOLKIT_VERSION } from '../../core';
import type { Services } from '../services';

const MCP_PROVIDER_ID = 'wfs.mcpServer';

/** The server as VS Code lists it: what to run, without any secret. */
export function mcpServerDefinition(s: Services, extensionUri: vscode.Uri): vscode.McpStdioServerDefinition {
  const cli = vscode.Uri.joinPath(extensionUri, 'dist', 'cli.js').fsPath;
  const args = [cli, 'mcp'];
  const history = s.receiver.historyFile;
  if (history) {
    args.push('--history', history);
    const url = s.receiver.info?.localUrl;
    if (url) args.push('--receiver-url', url);
  }
  const forwardTo = s.receiver.forwardTo;
  // Never --allow-remote: it would let the model send to any host. Off this machine the editor's own tools go only to
  // the origins the user confirmed; this server reaches loopback only.
  if (forwardTo) args.push('--forward-to', forwardTo);
  const readOnly = !vscode.workspace.isTrusted;
  if (readOnly) args.push('--read-only');
  const env: Record<string, string> = { ELECTRON_RUN_AS_NODE: '1' };
  const current = s.environments.current;
  if (current && current.name !== SANDBOX_ENVIRONMENT) {
    // A real environment: its address, never a password. Its workflow tools say what is missing.
    env.WFS_BASE_URL = current.baseUrl;
    env.WFS_TEST_WEBHOOK_URL = current.testWebhookUrl;
  }
  const workspace = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri;
  const definition = new vscode.McpStdioServerDefinition(
    vscode.l10n.t('Workflow Service (wfs mcp)'),
    process.execPath,
    args,
    env,
    `${TOOLKIT_VERSION}${readOnly ? '-read-only' : ''}`,
  );
  if (workspace) definition.cwd = workspace;
  return definition;
}

/** At start: the running sandbox of this window signs, so replays verify where this window's deliveries did. */
export function resolvedDefinition(
  s: Services,
  definition: vscode.McpStdioServerDefinition,
): vscode.McpStdioServerDefinition {
  const info = s.sandbox.info;
  if (!info || definition.args.includes('--sandbox-url')) return definition;
  definition.args = [...definition.args, '--sandbox-url', info.baseUrl];
  definition.env = { ...definition.env, [SANDBOX_SECRET_ENV]: info.controlSecret };
  if (s.environments.currentName === SANDBOX_ENVIRONMENT)
    // The sandbox's published demo account.
    definition.env = {
      ...definition.env,
      WFS_BASE_URL: info.baseUrl,
      WFS_USERNAME: info.username,
      WFS_PASSWORD: info.password,
    };
  return definition;
}

export function registerMcpServerProvider(s: Services, extensionUri: vscode.Uri): vscode.Disposable[] {
  const changed = new vscode.EventEmitter<void>();
  const provider: vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition> = {
    onDidChangeMcpServerDefinitions: changed.event,
    provideMcpServerDefinitions: () => [mcpServerDefinition(s, extensionUri)],
    resolveMcpServerDefinition: (definition) => resolvedDefinition(s, definition),
  };
  return [
    changed,
    vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider),
    // Trust granted: the server may offer its sending tools; a new environment or receiver: new arguments.
    vscode.workspace.onDidGrantWorkspaceTrust(() => changed.fire()),
    s.environments.onDidChange(() => changed.fire()),
    s.receiver.onDidChange(() => changed.fire()),
  ];
}

// The composition root: builds the services, registers views and commands, and pushes every disposable onto
// context.subscriptions (VS Code disposes them on deactivate: receiver, tunnel, sandbox, timers).
import { registerSandboxFaultCommands } from './commands/sandboxFaultCommands';
import * as vscode from 'vscode';
import { errorInUserWords } from './coreWords';
import { SystemClock } from '../core/time';
import { AuthService, type SignInArgs } from './auth/authService';
import { AccountsProvider } from './auth/accountsProvider';
import { registerEnvironmentCommands } from './commands/environmentCommands';
import { registerReceiverCommands } from './commands/receiverCommands';
import { registerSessionCommands } from './commands/sessionCommands';
import { registerTestWebhookCommand } from './commands/testWebhookCommand';
import { registerFixtureCommands } from './fixtures/fixtureCommands';
import { registerWorkflowCommands } from './commands/workflowCommands';
import { EnvironmentRegistry } from './environments/environmentRegistry';
import { EnvironmentSync } from './environments/environmentSync';
import { ExplorerTree, type ExplorerNode } from './explorer/explorerTree';
import { WORKFLOW_JSON_SCHEME, WorkflowJsonDocuments } from './explorer/workflowJsonDocuments';
import { ExtensionLog } from './log/extensionLog';
import { ReceiverHost } from './receiver/receiverHost';
import { ReceiverTaskProvider, WFS_TASK_TYPE } from './tasks/receiverTask';
import { ReceiverTree } from './receiver/receiverTree';
import { SandboxHost } from './sandboxHost';
import { ProxyRouting } from './proxyRouting';
import { WorkspaceSettingsGuard } from './trust/workspaceSettingsGuard';
import { migrateTunnelSetting } from './receiver/publicAddressSettings';
import { AuditTestController } from './audit/auditTestController';
import type { Services } from './services';
import { EnvironmentStatusBar } from './statusBar/environmentStatusBar';
import { ReceiverStatusBar } from './statusBar/receiverStatusBar';
import { WorkflowService } from './workflows/workflowService';
import { WebhookPanel } from './panel/webhookPanel';
import { AuditPanel, type AuditArgs } from './panel/auditPanel';
import { SandboxSigning } from './sandboxSigning';
import { registerProbeCommand } from './probe/probeCommand';
import { registerAssistant } from './assistant/registerAssistant';
import { COMMANDS, INTERNAL_COMMANDS } from './commandIds';
import { tellBadSettingsTo } from './settings';

/** What compose() built. The shipped activate() keeps it to itself: exported, it would hand every service (and
 * SecretStorage) to any other extension that calls getExtension(…).activate(). */
export interface Composition extends Services {
  webhookPanel: WebhookPanel;
  auditPanel: AuditPanel;
  treeView: vscode.TreeView<ExplorerNode>;
  receiverTree: ReceiverTree;
  settingsGuard: WorkspaceSettingsGuard;
  auditTests: AuditTestController;
}

/** Set by compose(): stops what holds sockets, timers and files, and resolves when it has. */
let shutdown: (() => Promise<void>) | undefined;

export function compose(context: vscode.ExtensionContext): Composition {
  const core = composeCore(context);
  const views = composeViews(core);
  const { output, clock, sandbox, environments, auth, workflows, receiver } = core;
  const signing = new SandboxSigning(sandbox, receiver, environments, output);
  const services: Services = {
    output,
    clock,
    sandbox,
    environments,
    auth,
    workflows,
    receiver,
    signing,
    explorer: views.explorer,
    state: context.globalState,
  };
  const editors = composeEditors(context, services);
  // Live status only while someone can see it.
  workflows.setVisible(views.treeView.visible);
  context.subscriptions.push(
    output,
    core.badSettings,
    core.proxy,
    editors.settingsGuard,
    editors.accounts,
    sandbox,
    environments,
    core.environmentSync,
    auth,
    workflows,
    receiver,
    signing,
    ...Object.values(views),
    editors.webhookPanel,
    editors.auditPanel,
    editors.auditTests,
    views.treeView.onDidChangeVisibility((e) => workflows.setVisible(e.visible)),
    receiver.onVerifiedEvent((e) => e.runId && workflows.refreshByRunId(e.runId)),
    vscode.workspace.registerTextDocumentContentProvider(
      WORKFLOW_JSON_SCHEME,
      new WorkflowJsonDocuments(workflows, environments),
    ),
    ...registerCommands(services, views, editors, context.extensionUri),
  );
  shutdown = async () => {
    // Polling first, so nothing reads a sandbox that is going away; then the servers, the tunnel and the history.
    workflows.stopPolling();
    const results = await Promise.allSettled([receiver.shutdown(), sandbox.stop()]);
    for (const r of results)
      if (r.status === 'rejected') output.warn(vscode.l10n.t('Shutdown: {0}', (r.reason as Error).message));
  };
  const { webhookPanel, auditPanel, settingsGuard, auditTests } = editors;
  const { treeView, receiverTree } = views;
  return { ...services, settingsGuard, auditTests, webhookPanel, auditPanel, treeView, receiverTree };
}

/** The services without a view, each built after those it needs; settings that do not fit are told in the log. */
function composeCore(context: vscode.ExtensionContext) {
  const clock = new SystemClock();
  const output = new ExtensionLog();
  const badSettings = tellBadSettingsTo(output);
  const proxy = new ProxyRouting(output);
  void migrateTunnelSetting(output).catch((err: Error) =>
    output.warn(vscode.l10n.t('Settings: wfs.receiver.tunnel could not be moved: {0}', errorInUserWords(err))),
  );
  const sandbox = new SandboxHost(output);
  const environments = new EnvironmentRegistry(context.globalState, sandbox, output);
  const auth = new AuthService(context.secrets, environments, sandbox, output, clock);
  const workflows = new WorkflowService(context.globalState, environments, auth, output, clock);
  const receiver = new ReceiverHost(
    context.globalStorageUri.fsPath,
    context.globalState,
    environments,
    sandbox,
    output,
    clock,
  );
  // Sign-ins first, then pollers and the store, then the receiver's trust; views hear of a change last.
  const environmentSync = new EnvironmentSync(environments, sandbox, [auth, workflows, receiver], output);
  return { clock, output, badSettings, proxy, sandbox, environments, auth, workflows, receiver, environmentSync };
}

/** The trees and status bar items, in the order they are disposed. */
function composeViews(core: ReturnType<typeof composeCore>) {
  const { environments, auth, workflows, receiver, clock } = core;
  const explorer = new ExplorerTree(environments, auth, workflows, receiver, clock);
  const treeView = vscode.window.createTreeView('wfs.explorer', { treeDataProvider: explorer, showCollapseAll: true });
  const receiverTree = new ReceiverTree(receiver, clock);
  const receiverView = vscode.window.createTreeView('wfs.receiver', { treeDataProvider: receiverTree });
  const statusBar = new EnvironmentStatusBar(environments, auth, clock);
  const receiverStatusBar = new ReceiverStatusBar(receiver);
  return { explorer, treeView, receiverTree, receiverView, statusBar, receiverStatusBar };
}

/** The webviews, the fixtures' commands, the audit's tests, the settings guard and the Accounts menu. */
function composeEditors(context: vscode.ExtensionContext, services: Services) {
  const webhookPanel = new WebhookPanel(context.extensionUri, services);
  const auditPanel = new AuditPanel(context.extensionUri, services);
  const fixtures = registerFixtureCommands(services, context.workspaceState);
  const auditTests = new AuditTestController(auditPanel);
  const settingsGuard = new WorkspaceSettingsGuard(context.globalState, services.output);
  // Signed-in environments in VS Code's Accounts menu; sign-in and sign-out still go through AuthService.
  const accounts = new AccountsProvider(services.auth, services.environments);
  return { webhookPanel, auditPanel, fixtures, auditTests, settingsGuard, accounts };
}

/** Every command, and the receiver's task provider. */
function registerCommands(
  services: Services,
  views: ReturnType<typeof composeViews>,
  editors: ReturnType<typeof composeEditors>,
  extensionUri: vscode.Uri,
): vscode.Disposable[] {
  const { webhookPanel, auditPanel } = editors;
  const { sandbox, auth, output, receiver } = services;
  return [
    vscode.commands.registerCommand(COMMANDS.openWebhookPanel, (deliveryId?: string) =>
      webhookPanel.show(typeof deliveryId === 'string' ? deliveryId : undefined),
    ),
    vscode.commands.registerCommand(COMMANDS.clearWebhookHistory, () => webhookPanel.clearHistory()),
    vscode.commands.registerCommand(COMMANDS.exportWebhookHistory, (to?: vscode.Uri) =>
      webhookPanel.exportHistory(to instanceof vscode.Uri ? to : undefined),
    ),
    vscode.commands.registerCommand(COMMANDS.auditReceiver, (args?: AuditArgs) =>
      auditPanel.run(args && typeof args === 'object' ? args : {}),
    ),
    vscode.commands.registerCommand(COMMANDS.revealWorkflowByRunId, (runId: string) =>
      revealWorkflowByRunId(services, views.treeView, runId),
    ),
    vscode.commands.registerCommand(COMMANDS.startSandbox, () => sandbox.startWithUi()),
    vscode.commands.registerCommand(COMMANDS.stopSandbox, () => sandbox.stop()),
    ...registerSandboxFaultCommands(sandbox),
    vscode.commands.registerCommand(COMMANDS.showLog, () => output.show()),
    vscode.commands.registerCommand(COMMANDS.signIn, (args?: SignInArgs) => auth.signIn(args)),
    vscode.commands.registerCommand(COMMANDS.signOut, (environment?: string) =>
      auth.signOut(typeof environment === 'string' ? environment : undefined),
    ),
    ...registerEnvironmentCommands(services),
    ...registerSessionCommands(services),
    ...registerWorkflowCommands(services),
    ...registerTestWebhookCommand(services),
    ...registerReceiverCommands(services),
    ...registerProbeCommand(services),
    ...editors.fixtures,
    ...registerAssistant(services, extensionUri),
    vscode.tasks.registerTaskProvider(WFS_TASK_TYPE, new ReceiverTaskProvider(receiver)),
  ];
}

/** "Go to Workflow" from the panel: reveals the workflow whose runId a delivery carries. */
async function revealWorkflowByRunId(
  s: Services,
  treeView: vscode.TreeView<ExplorerNode>,
  runId: string,
): Promise<string | undefined> {
  for (const env of s.environments.all()) {
    const w = s.workflows.store.findByRunId(env, runId);
    if (!w) continue;
    if (env.name !== s.environments.currentName) await s.environments.select(env.name);
    await vscode.commands.executeCommand(INTERNAL_COMMANDS.explorerFocus);
    await treeView.reveal(
      { kind: 'workflow', env, workflowId: w.workflowId },
      { select: true, focus: true, expand: true },
    );
    return w.workflowId;
  }
  void vscode.window.showInformationMessage(vscode.l10n.t('No workflow in the explorer has runId {0}.', runId));
  return undefined;
}

/** VS Code awaits this before disposing context.subscriptions: the receiver, its tunnel and history file, and the
 * sandbox are closed by the time it resolves, so a window reload never races a write or a listening port. */
export async function deactivate(): Promise<void> {
  const stop = shutdown;
  shutdown = undefined;
  await stop?.();
}

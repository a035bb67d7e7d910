// Entry point and table of contents: builds the services, registers views and commands, and pushes every
// disposable onto context.subscriptions (VS Code disposes them on deactivate: receiver, tunnel, sandbox, timers).
import * as vscode from 'vscode';
import { SystemClock } from '../core/time/clock';
import { AuthService, type SignInArgs } from './auth/authService';
import { registerEnvironmentCommands } from './commands/environmentCommands';
import { registerReceiverCommands } from './commands/receiverCommands';
import { registerSessionCommands } from './commands/sessionCommands';
import { registerTestWebhookCommand } from './commands/testWebhookCommand';
import { registerWorkflowCommands } from './commands/workflowCommands';
import { EnvironmentRegistry } from './environments/environmentRegistry';
import { ExplorerTree, type ExplorerNode } from './explorer/explorerTree';
import { WORKFLOW_JSON_SCHEME, WorkflowJsonDocuments } from './explorer/workflowJsonDocuments';
import { ExtensionLog } from './log/extensionLog';
import { ReceiverHost } from './receiver/receiverHost';
import { SandboxHost } from './sandboxHost';
import type { Services } from './services';
import { EnvironmentStatusBar } from './statusBar/environmentStatusBar';
import { ReceiverStatusBar } from './statusBar/receiverStatusBar';
import { WorkflowService } from './workflows/workflowService';

/** What activate() returns: the extension-host tests observe state through it. */
export interface ExtensionApi extends Services {
  secrets: vscode.SecretStorage;
  statusBar: EnvironmentStatusBar;
  receiverStatusBar: ReceiverStatusBar;
  treeView: vscode.TreeView<ExplorerNode>;
  /** context.subscriptions: what VS Code disposes on deactivate (the lifecycle test disposes it itself). */
  subscriptions: readonly vscode.Disposable[];
}

export function activate(context: vscode.ExtensionContext): ExtensionApi {
  const clock = new SystemClock();
  const log = new ExtensionLog();
  const sandbox = new SandboxHost(log);
  const environments = new EnvironmentRegistry(context.globalState, sandbox, log);
  const auth = new AuthService(context.secrets, environments, sandbox, log, clock);
  const workflows = new WorkflowService(context.globalState, environments, auth, sandbox, log, clock);
  const receiver = new ReceiverHost(context.globalStorageUri.fsPath, environments, sandbox, log, clock);
  const explorer = new ExplorerTree(environments, auth, workflows, clock);
  const treeView = vscode.window.createTreeView('wfs.explorer', { treeDataProvider: explorer, showCollapseAll: true });
  const statusBar = new EnvironmentStatusBar(environments, auth, clock);
  const receiverStatusBar = new ReceiverStatusBar(receiver);
  const services: Services = { log, clock, sandbox, environments, auth, workflows, receiver, explorer, state: context.globalState };

  // Live status only while someone can see it.
  workflows.setVisible(treeView.visible);
  context.subscriptions.push(
    log,
    sandbox,
    environments,
    auth,
    workflows,
    receiver,
    explorer,
    treeView,
    statusBar,
    receiverStatusBar,
    treeView.onDidChangeVisibility((e) => workflows.setVisible(e.visible)),
    receiver.onVerifiedEvent((e) => e.runId && workflows.refreshByRunId(e.runId)),
    vscode.workspace.registerTextDocumentContentProvider(WORKFLOW_JSON_SCHEME, new WorkflowJsonDocuments(workflows)),
    vscode.commands.registerCommand('wfs.startSandbox', () => sandbox.startWithUi()),
    vscode.commands.registerCommand('wfs.stopSandbox', () => sandbox.stop()),
    vscode.commands.registerCommand('wfs.showLog', () => log.show()),
    vscode.commands.registerCommand('wfs.signIn', (args?: SignInArgs) => auth.signIn(args)),
    vscode.commands.registerCommand('wfs.signOut', (environment?: string) => auth.signOut(typeof environment === 'string' ? environment : undefined)),
    ...registerEnvironmentCommands(services),
    ...registerSessionCommands(services),
    ...registerWorkflowCommands(services),
    ...registerTestWebhookCommand(services),
    ...registerReceiverCommands(services),
  );
  return { ...services, secrets: context.secrets, statusBar, receiverStatusBar, treeView, subscriptions: context.subscriptions };
}

export function deactivate(): void {
  // Everything is on context.subscriptions; VS Code disposes it (stopping the receiver, tunnel and sandbox).
}

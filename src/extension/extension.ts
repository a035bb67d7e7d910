// Entry point: builds the services, registers commands, and pushes every disposable onto the context.
import * as vscode from 'vscode';
import { SandboxHost } from './sandboxHost';
import { ExplorerTree } from './explorer/explorerTree';
import { SandboxAuth, type SignInArgs } from './sandboxAuth';

/** What activate() returns: used by the extension-host tests to observe state. */
export interface ExtensionApi {
  auth: SandboxAuth;
  secrets: vscode.SecretStorage;
}

export function activate(context: vscode.ExtensionContext): ExtensionApi {
  const log = vscode.window.createOutputChannel('Workflow Service', { log: true });
  const sandbox = new SandboxHost(log);
  const explorer = new ExplorerTree(sandbox);
  const auth = new SandboxAuth(context.secrets, sandbox, log);
  context.subscriptions.push(
    log,
    sandbox,
    explorer,
    auth,
    vscode.window.registerTreeDataProvider('wfs.explorer', explorer),
    vscode.commands.registerCommand('wfs.startSandbox', () => sandbox.startWithUi()),
    vscode.commands.registerCommand('wfs.stopSandbox', () => sandbox.stop()),
    vscode.commands.registerCommand('wfs.showLog', () => log.show()),
    vscode.commands.registerCommand('wfs.signIn', (args?: SignInArgs) => auth.signIn(args)),
    vscode.commands.registerCommand('wfs.signOut', () => auth.signOut()),
  );
  return { auth, secrets: context.secrets };
}

export function deactivate(): void {
  // Every service is a disposable on context.subscriptions; VS Code disposes them (stopping the sandbox).
}

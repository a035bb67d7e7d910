// Entry point: builds the services, registers commands, and pushes every disposable onto the context.
import * as vscode from 'vscode';
import { SandboxHost } from './sandboxHost';
import { ExplorerTree } from './explorer/explorerTree';

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Workflow Service', { log: true });
  const sandbox = new SandboxHost(log);
  const explorer = new ExplorerTree(sandbox);
  context.subscriptions.push(
    log,
    sandbox,
    explorer,
    vscode.window.registerTreeDataProvider('wfs.explorer', explorer),
    vscode.commands.registerCommand('wfs.startSandbox', () => sandbox.startWithUi()),
    vscode.commands.registerCommand('wfs.stopSandbox', () => sandbox.stop()),
    vscode.commands.registerCommand('wfs.showLog', () => log.show()),
  );
}

export function deactivate(): void {
  // Every service is a disposable on context.subscriptions; VS Code disposes them (stopping the sandbox).
}

// The Workflow Service explorer: environments at the root. Empty while nothing runs, so the welcome view shows.
import * as vscode from 'vscode';
import type { SandboxHost } from '../sandboxHost';

type Node = { kind: 'sandbox'; baseUrl: string };

export class ExplorerTree implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly sandbox: SandboxHost) {
    this.subscription = sandbox.onDidChange(() => this.changed.fire(undefined));
  }

  getChildren(node?: Node): Node[] {
    if (node) return [];
    const info = this.sandbox.info;
    return info ? [{ kind: 'sandbox', baseUrl: info.baseUrl }] : [];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    const item = new vscode.TreeItem('Sandbox', vscode.TreeItemCollapsibleState.None);
    item.description = node.baseUrl;
    item.iconPath = new vscode.ThemeIcon('beaker', new vscode.ThemeColor('testing.iconPassed'));
    item.tooltip = new vscode.MarkdownString(`**Sandbox** — the built-in simulator of the Workflow Service\n\nListening at \`${node.baseUrl}\``);
    item.contextValue = 'environment sandbox running';
    return item;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

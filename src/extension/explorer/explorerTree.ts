// The Workflow Service explorer: the current Environment → its Sessions → the Workflows started in them.
// When the environment is not usable yet (sandbox stopped, signed out, no sessions) the tree is empty and a
// welcome view, chosen by the context key wfs.explorerState, says what to do with a button.
import * as vscode from 'vscode';
import { Disposable } from '../disposable';
import { type Environment, SANDBOX_ENVIRONMENT } from '../../core/environments';
import { terminalSafe } from '../../core/presentation';
import type { Clock } from '../../core/time';
import type { AuthService } from '../auth/authService';
import type { EnvironmentRegistry } from '../environments/environmentRegistry';
import type { WorkflowService } from '../workflows/workflowService';
import type { ReceiverHost } from '../receiver/receiverHost';
import { deliveryTreeItem } from '../receiver/deliveryTreeItem';
import {
  workflowContextValue,
  workflowAccessibleLabel,
  workflowDescription,
  workflowIcon,
  workflowLabel,
  workflowTooltip,
} from './workflowPresentation';

/** Each node carries the Environment value it was shown for: a command run on it acts on that value (and refuses,
 * with EnvironmentChanged, when the name now resolves to another). Tree item ids use the name: stable for VS Code. */
export type ExplorerNode =
  | { kind: 'environment'; env: Environment }
  | { kind: 'session'; env: Environment; sessionId: string }
  | { kind: 'workflow'; env: Environment; workflowId: string }
  | { kind: 'delivery'; env: Environment; workflowId: string; deliveryId: string };

export type ExplorerState = 'sandbox-stopped' | 'not-configured' | 'signed-out' | 'no-sessions' | 'ready';

export class ExplorerTree extends Disposable implements vscode.TreeDataProvider<ExplorerNode> {
  private readonly changed = this.register(new vscode.EventEmitter<ExplorerNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private state?: ExplorerState;

  constructor(
    private readonly environments: EnvironmentRegistry,
    private readonly auth: AuthService,
    private readonly workflows: WorkflowService,
    private readonly receiver: ReceiverHost,
    private readonly clock: Clock,
  ) {
    super();
    const refresh = () => this.changed.fire(undefined);
    this.registerAll(
      environments.onDidChange(refresh),
      auth.onDidChange(refresh),
      workflows.onDidChange(refresh),
      receiver.onDidReceive(refresh),
      receiver.onDidClearHistory(refresh),
    );
  }

  /** What the explorer shows now; also published as the context key that picks the welcome view. */
  currentState(): ExplorerState {
    const env = this.environments.current;
    let state: ExplorerState;
    if (!env) state = this.environments.currentName === SANDBOX_ENVIRONMENT ? 'sandbox-stopped' : 'not-configured';
    else {
      const tm = this.auth.peek(env);
      if (!tm || tm.state === 'signed-out' || tm.state === 'expired') state = 'signed-out';
      else state = this.workflows.store.sessions(env).length === 0 ? 'no-sessions' : 'ready';
    }
    if (state !== this.state) {
      this.state = state;
      void vscode.commands.executeCommand('setContext', 'wfs.explorerState', state);
    }
    return state;
  }

  async getChildren(node?: ExplorerNode): Promise<ExplorerNode[]> {
    if (!node) {
      const env = this.environments.current;
      if (env) await this.auth.manager(env); // loads a stored sign-in before deciding
      return env && this.currentState() === 'ready' ? [{ kind: 'environment', env }] : [];
    }
    if (node.kind === 'environment')
      return this.workflows.store
        .sessions(node.env)
        .map((sessionId) => ({ kind: 'session', env: node.env, sessionId }));
    if (node.kind === 'session')
      return this.workflows.store
        .workflows(node.env, node.sessionId)
        .slice()
        .reverse()
        .map((w) => ({ kind: 'workflow', env: node.env, workflowId: w.workflowId }));
    if (node.kind === 'workflow') {
      const w = this.workflows.store.workflow(node.env, node.workflowId);
      return w
        ? this.deliveriesOf(w.runId).map((r) => ({
            kind: 'delivery',
            env: node.env,
            workflowId: node.workflowId,
            deliveryId: r.id,
          }))
        : [];
    }
    return [];
  }

  /** Verified deliveries that carry this runId, newest first (a forged one cannot claim a workflow). */
  private deliveriesOf(runId: string) {
    return this.receiver.deliveries.query({ runId, verified: true }).reverse();
  }

  getParent(node: ExplorerNode): ExplorerNode | undefined {
    if (node.kind === 'session') return { kind: 'environment', env: node.env };
    if (node.kind === 'workflow') {
      const w = this.workflows.store.workflow(node.env, node.workflowId);
      return w ? { kind: 'session', env: node.env, sessionId: w.sessionId } : undefined;
    }
    if (node.kind === 'delivery') return { kind: 'workflow', env: node.env, workflowId: node.workflowId };
    return undefined;
  }

  getTreeItem(node: ExplorerNode): vscode.TreeItem {
    if (node.kind === 'environment') {
      const env = node.env;
      const tm = this.auth.peek(env);
      const item = new vscode.TreeItem(env.name, vscode.TreeItemCollapsibleState.Expanded);
      item.id = `env/${env.name}`;
      item.description = [tm?.current?.username, env.baseUrl].filter(Boolean).join(' · ');
      item.iconPath = new vscode.ThemeIcon(env.builtIn ? 'beaker' : 'cloud', new vscode.ThemeColor('charts.green'));
      item.tooltip = new vscode.MarkdownString(
        env.builtIn
          ? vscode.l10n.t('**{0}** — the built-in sandbox\n\nService at `{1}`', env.name, env.baseUrl)
          : vscode.l10n.t('**{0}**\n\nService at `{1}`', env.name, env.baseUrl),
      );
      item.contextValue = `environment ${env.builtIn ? 'sandbox' : 'remote'}`;
      item.accessibilityInformation = {
        label: tm?.current?.username
          ? vscode.l10n.t('Environment {0}, signed in as {1}, at {2}', env.name, tm.current.username, env.baseUrl)
          : vscode.l10n.t('Environment {0}, signed out, at {1}', env.name, env.baseUrl),
      };
      return item;
    }
    if (node.kind === 'session') {
      const n = this.workflows.store.workflows(node.env, node.sessionId).length;
      // Always expandable: VS Code keeps the first collapsible state it saw for an id, so None would stick.
      const item = new vscode.TreeItem(terminalSafe(node.sessionId), vscode.TreeItemCollapsibleState.Expanded);
      item.id = `session/${node.env.name}/${node.sessionId}`;
      item.description =
        n === 0
          ? vscode.l10n.t('no workflows yet')
          : n === 1
            ? vscode.l10n.t('1 workflow')
            : vscode.l10n.t('{0} workflows', n);
      item.iconPath = new vscode.ThemeIcon('folder-library');
      item.tooltip = new vscode.MarkdownString(
        vscode.l10n.t(
          'Session `{0}` in {1}\n\nStart a workflow here with the ▷ button.',
          node.sessionId,
          node.env.name,
        ),
      );
      item.contextValue = 'session';
      item.accessibilityInformation = {
        label: vscode.l10n.t('Session {0}, {1}', terminalSafe(node.sessionId), item.description),
      };
      return item;
    }
    if (node.kind === 'delivery') return this.deliveryItem(node);
    const w = this.workflows.store.workflow(node.env, node.workflowId);
    if (!w) return new vscode.TreeItem(vscode.l10n.t('(removed)'));
    const deliveries = this.deliveriesOf(w.runId).length;
    const item = new vscode.TreeItem(
      workflowLabel(w),
      deliveries ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
    );
    // The id changes when deliveries first arrive: VS Code keeps the first collapsible state it saw for an id.
    item.id = `workflow/${node.env.name}/${w.workflowId}${deliveries ? '/deliveries' : ''}`;
    item.description = workflowDescription(w);
    const icon = workflowIcon(w);
    item.iconPath = new vscode.ThemeIcon(icon.id, icon.color ? new vscode.ThemeColor(icon.color) : undefined);
    const tooltip = new vscode.MarkdownString(workflowTooltip(w, this.clock.now()));
    tooltip.isTrusted = false;
    tooltip.supportHtml = false;
    item.tooltip = tooltip;
    item.contextValue = workflowContextValue(w);
    item.accessibilityInformation = { label: workflowAccessibleLabel(w) };
    return item;
  }

  private deliveryItem(node: Extract<ExplorerNode, { kind: 'delivery' }>): vscode.TreeItem {
    const r = this.receiver.deliveries.find(node.deliveryId);
    return r
      ? deliveryTreeItem(r, `delivery/${r.id}`)
      : new vscode.TreeItem(vscode.l10n.t('(no longer in the history)'));
  }
}

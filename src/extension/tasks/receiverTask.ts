// Task type `wfs`: `{"type": "wfs", "task": "receiver", "forward": [rules], "passThrough": false}` starts the webhook
// receiver with those forward rules and prints each delivery in its terminal (a Pseudoterminal, no process). Its
// background problem matcher ("$wfs-receiver") lets a launch configuration's preLaunchTask wait until the receiver
// is ready, and files each failed forward in the Problems view. When the debug session that waited for it ends, the
// task ends, and stops the receiver if the task started it; a receiver the user had started stays up.
// A workspace's tasks.json is someone else's file: the task waits for trust (VS Code runs no task in Restricted Mode
// either), and its forward rules are used only once the user agreed to them (ForwardConsent); those of the user's own
// tasks.json are used as the user's settings are.
import * as vscode from 'vscode';
import { Disposable } from '../disposable';
import { type DeliveryRecord, ForwardRuleError, parseForwardRules } from '../../core/webhooks';
import type { TaskForward } from '../receiver/forwardConsent';
import type { ReceiverHost } from '../receiver/receiverHost';
import { waitsForTrustText } from '../trust/restrictedMode';
import { deliveryLines, TASK_STARTING, taskReady, terminalLine } from './receiverTaskLines';

export const WFS_TASK_TYPE = 'wfs';

export interface WfsTaskDefinition extends vscode.TaskDefinition {
  task: 'receiver';
  forward?: unknown[];
  passThrough?: boolean;
}

export class ReceiverTaskProvider implements vscode.TaskProvider {
  constructor(private readonly receiver: ReceiverHost) {}

  provideTasks(): vscode.Task[] {
    return [this.task({ type: WFS_TASK_TYPE, task: 'receiver' }, vscode.TaskScope.Workspace)];
  }

  resolveTask(task: vscode.Task): vscode.Task | undefined {
    const d = task.definition as WfsTaskDefinition;
    if (d.type !== WFS_TASK_TYPE || d.task !== 'receiver') return undefined;
    return this.task(d, task.scope ?? vscode.TaskScope.Workspace, task.name);
  }

  private task(d: WfsTaskDefinition, scope: vscode.TaskScope | vscode.WorkspaceFolder, name = 'receiver'): vscode.Task {
    const t = new vscode.Task(
      d,
      scope,
      name,
      WFS_TASK_TYPE,
      new vscode.CustomExecution(async (resolved) =>
        receiverTaskTerminal(this.receiver, resolved as WfsTaskDefinition, scope),
      ),
      ['$wfs-receiver'],
    );
    t.isBackground = true;
    return t;
  }
}

/** The task's terminal: what its CustomExecution runs (the host suite drives it directly in Restricted Mode, where
 * VS Code would not start the task at all). */
export function receiverTaskTerminal(
  receiver: ReceiverHost,
  definition: WfsTaskDefinition,
  scope: vscode.TaskScope | vscode.WorkspaceFolder | undefined,
): vscode.Pseudoterminal {
  return new ReceiverTerminal(receiver, definition, scope === vscode.TaskScope.Global);
}

class ReceiverTerminal extends Disposable implements vscode.Pseudoterminal {
  private readonly written = new vscode.EventEmitter<string>();
  private readonly closed = new vscode.EventEmitter<number | void>();
  readonly onDidWrite = this.written.event;
  readonly onDidClose = this.closed.event;
  /** Whether this task started the receiver (then it stops it); a receiver already running stays up. */
  private started = false;
  /** Debug sessions started while the task runs, whose end ends it. */
  private readonly sessions = new Set<string>();
  private ended = false;

  constructor(
    private readonly receiver: ReceiverHost,
    private readonly definition: WfsTaskDefinition,
    /** Defined in the user's own tasks.json, not a workspace's. */
    private readonly userTask: boolean,
  ) {
    super();
  }

  private line(text: string): void {
    this.written.fire(terminalLine(text));
  }

  open(): void {
    // English on purpose: the problem matcher's endsPattern (package.json) reads this line, as it reads the lines
    // of receiverTaskLines.ts; a translated line would leave a preLaunchTask waiting.
    void this.run().catch((err: Error) => this.end(1, `wfs: the receiver did not start: ${err.message}`));
  }

  private async run(): Promise<void> {
    if (!vscode.workspace.isTrusted)
      return this.end(
        1,
        vscode.l10n.t('wfs: {0} Nothing was started.', waitsForTrustText(vscode.l10n.t('The receiver task'))),
      );
    this.line(TASK_STARTING);
    const rules = this.definition.forward;
    if (rules !== undefined) {
      if (!Array.isArray(rules)) throw new Error(vscode.l10n.t('"forward" must be a list of rules {"topic", "url"}'));
      try {
        parseForwardRules(rules, vscode.l10n.t('the task\'s "forward"'));
      } catch (err) {
        if (err instanceof ForwardRuleError) throw new Error(err.message);
        throw err;
      }
    }
    this.registerAll(this.receiver.onDidReceive((r: DeliveryRecord) => deliveryLines(r).forEach((l) => this.line(l))));
    this.registerAll(
      vscode.debug.onDidStartDebugSession((s) => {
        if (s.configuration.preLaunchTask !== undefined) this.sessions.add(s.id);
      }),
      vscode.debug.onDidTerminateDebugSession((s) => {
        if (!this.sessions.delete(s.id) || this.sessions.size > 0) return;
        void this.end(0, vscode.l10n.t('wfs: the debug session {0} ended: the task ends', JSON.stringify(s.name)));
      }),
    );
    if (this.receiver.info?.localUrl) {
      this.line(
        vscode.l10n.t(
          'wfs: the receiver was already running (started before this task): it keeps its own forward rules, and stays up when the task ends.',
        ),
      );
    } else {
      this.started = true;
      // ReceiverHost hands this object to ForwardConsent.useTaskRules as it is, userTask included.
      const forward: TaskForward | undefined =
        rules === undefined
          ? undefined
          : { rules, passThrough: this.definition.passThrough === true, userTask: this.userTask };
      const info = await this.receiver.startWithForward(forward);
      if (this.ended) return;
      if (info.forwardRules)
        this.line(
          info.passThrough
            ? vscode.l10n.t('wfs: forwarding by {0} rule(s), pass-through on', info.forwardRules)
            : vscode.l10n.t('wfs: forwarding by {0} rule(s)', info.forwardRules),
        );
    }
    this.line(taskReady(this.receiver.info?.localUrl ?? '?'));
  }

  private async end(code: number, why: string): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    this.line(why);
    this.dispose();
    if (this.started) {
      await this.receiver.stop().catch(() => undefined);
      this.line(vscode.l10n.t('wfs: the receiver this task started is stopped.'));
    }
    this.closed.fire(code);
  }

  close(): void {
    // Terminated by the user (or VS Code): the receiver it started goes with it.
    void this.end(0, vscode.l10n.t('wfs: the task was stopped'));
  }
}

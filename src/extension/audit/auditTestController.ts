// The receiver audit in VS Code's Testing view: one test item per case, grouped by the rule's step; run all, a
// group or one case; a failure's message is the fix; "Rerun Failed Tests" sends only those. The scorecard webview
// stays the readable report (the run opens it).
import * as vscode from 'vscode';
import { Disposable } from '../disposable';
import {
  AUDIT_CASES,
  auditCaseTitle,
  type AuditCaseResult,
  auditGroup,
  auditGroupSaid,
  auditResultWorded,
} from '../../core/audit';
import { inUserWords, userWording } from '../coreWords';
import type { AuditPanel } from '../panel/auditPanel';

export interface AuditTestOutcome {
  id: string;
  passed: boolean;
  message?: string;
  /** Not sent: the receiver refused the genuine delivery, so this case was neither sent nor judged. */
  notSent?: true;
}

export class AuditTestController extends Disposable {
  readonly controller = this.register(
    vscode.tests.createTestController('wfs.receiverAudit', vscode.l10n.t('Webhook Receiver Audit')),
  );

  constructor(private readonly panel: AuditPanel) {
    super();
    for (const c of AUDIT_CASES) {
      const groupId = `group:${auditGroup(c.rule)}`;
      let group = this.controller.items.get(groupId);
      if (!group) {
        group = this.controller.createTestItem(groupId, inUserWords(auditGroupSaid(c.rule)));
        this.controller.items.add(group);
      }
      const item = this.controller.createTestItem(c.id, auditCaseTitle(c, userWording));
      item.description = vscode.l10n.t('expects {0}', c.expectStatus);
      group.children.add(item);
    }
    this.controller.createRunProfile(
      vscode.l10n.t('Audit a Webhook Receiver'),
      vscode.TestRunProfileKind.Run,
      async (request, token) => {
        await this.run(request, token);
      },
      true,
    );
  }

  /** Runs the request's cases (all when it names none). `target` skips the question (tests, re-runs). */
  async run(
    request: vscode.TestRunRequest,
    token: vscode.CancellationToken,
    target?: string,
  ): Promise<AuditTestOutcome[]> {
    const excluded = new Set((request.exclude ?? []).map((t) => t.id));
    const leaves: vscode.TestItem[] = [];
    const collect = (item: vscode.TestItem) => {
      if (excluded.has(item.id)) return;
      if (item.children.size === 0) leaves.push(item);
      else item.children.forEach(collect);
    };
    if (request.include) request.include.forEach(collect);
    else this.controller.items.forEach(collect);
    const byId = new Map(leaves.map((t) => [t.id, t]));
    const run = this.controller.createTestRun(request, vscode.l10n.t('Receiver audit'));
    for (const t of leaves) run.enqueued(t);
    const outcomes: AuditTestOutcome[] = [];
    const report = (result: AuditCaseResult) => {
      const item = byId.get(result.id);
      // A refused genuine delivery is reported with the run's end, in the editor's words (below).
      if (!item || result.trustMismatch) return;
      const r = auditResultWorded(result, userWording);
      run.started(item);
      if (r.passed) {
        run.passed(item, r.durationMs);
        outcomes.push({ id: r.id, passed: true });
      } else {
        const message = new vscode.TestMessage(r.fix);
        message.expectedOutput = String(r.expected);
        // No answer: what the detail says of it (core's words, worded above), not the transport's English error.
        message.actualOutput = r.status === undefined ? vscode.l10n.t('no answer: {0}', r.detail) : String(r.status);
        run.failed(item, message, r.durationMs);
        const lines = [vscode.l10n.t('✗ {0}: {1}', r.title, r.detail), `  ${vscode.l10n.t('fix: {0}', r.fix)}`];
        run.appendOutput(`${lines.join('\r\n')}\r\n`, undefined, item);
        outcomes.push({ id: r.id, passed: false, message: r.fix });
      }
    };
    try {
      const summary = await this.panel.run({
        target,
        caseIds: leaves.map((t) => t.id),
        onResult: report,
        cancellation: token,
      });
      const advice = summary && this.panel.trustAdvice(summary);
      if (summary?.trustMismatch && advice) {
        // The receiver refused the genuine delivery: nothing else was sent or judged, and no case failed for it.
        run.appendOutput(`✗ ${advice}\r\n`);
        const genuine = summary.results.find((r) => r.trustMismatch)!;
        const notSent = vscode.l10n.t(
          'Not sent: the receiver refused the genuine delivery, so this case would say nothing. {0}',
          advice,
        );
        for (const t of leaves) {
          run.started(t);
          if (t.id === genuine.id) {
            const message = new vscode.TestMessage(advice);
            message.expectedOutput = String(genuine.expected);
            message.actualOutput = String(genuine.status);
            run.failed(t, message, genuine.durationMs);
            outcomes.push({ id: t.id, passed: false, message: advice });
          } else {
            run.errored(t, new vscode.TestMessage(notSent));
            outcomes.push({ id: t.id, passed: false, message: notSent, notSent: true });
          }
        }
      }
      if (!summary) for (const t of leaves) if (!outcomes.some((o) => o.id === t.id)) run.skipped(t);
    } finally {
      run.end();
    }
    return outcomes;
  }
}

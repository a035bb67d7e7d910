// The explorer's words around the service's statuses: a known status worded, an unknown one quoted as data, and
// why polling stopped kept as a reason (never as text in the language of its moment), so a later display is in the
// language the editor has then. The last polling error keeps core's Said beside its English.
import '../helpers/vscodeL10n';
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { classifyResponse } from '../../../src/core/http/classifyResponse';
import { errorMark, WorkflowStore, type TrackedWorkflow } from '../../../src/core/workflows/WorkflowStore';
import {
  workflowAccessibleLabel,
  workflowDescription,
  workflowStatusWords,
  workflowTooltip,
} from '../../../src/extension/explorer/workflowPresentation';
import { pseudoWording, withoutValues } from '../helpers/pseudoWording';
import { plainLetters } from '../l10n/pseudoLocale';

const base: TrackedWorkflow = {
  workflowId: 'wf_1',
  runId: 'wfrun_1',
  sessionId: 'sess-1',
  correlationId: 'cid-1',
  product: { service: 'Appraisal', model: 'Standard' },
  status: 'processing',
  reconfirmAvailable: false,
  startedAt: 0,
};
const ENV = { name: 'E', key: 'E@https://e.example+https://e.example' };
const l10n = vscode.l10n as { t: (message: string, ...args: (string | number)[]) => string };

/** Runs `f` with vscode.l10n.t wording through the pseudo-locale bundle, as VS Code does in another language. */
function inPseudoLocale<T>(f: () => T): T {
  const english = l10n.t;
  const wording = pseudoWording();
  l10n.t = (message, ...args) => wording(message, ...args);
  try {
    return f();
  } finally {
    l10n.t = english;
  }
}

describe('l10n: workflow statuses and why polling stopped', () => {
  it('a known status is worded; an unknown one is data, quoted as sent', () => {
    assert.equal(workflowStatusWords('complete'), 'complete');
    assert.equal(workflowStatusWords('paused-by-ops'), '"paused-by-ops"');
    inPseudoLocale(() => {
      assert.equal(plainLetters(workflowStatusWords('complete')), '');
      assert.equal(plainLetters(withoutValues(workflowStatusWords('Paused'), 'Paused')), '');
    });
  });

  it('polling stopped is kept as a reason and worded when shown, in the language of that moment', () => {
    const saved: unknown[] = [];
    const store = new WorkflowStore(undefined, (s) => void saved.push(JSON.parse(JSON.stringify(s))));
    store.upsertFromEnvelope(ENV, { workflow: { ...base, productType: 'A' } } as never, { now: 1 });
    const notFound = classifyResponse(
      {
        status: 404,
        contentType: 'application/problem+json',
        headers: {},
        body: Buffer.from(JSON.stringify({ type: 'https://x/problems/not-found', title: 'Not Found' })),
        durationMs: 1,
      },
      { operation: 'read', subject: 'wf_1' },
    );
    assert.equal(notFound.ok, false);
    const err = (notFound as { error: Error }).error;
    store.markWorkflow(ENV, 'wf_1', { pollingStopped: 'error', ...errorMark(err) });
    // What is persisted: the reason, the error's English and its Said, never words of the language of the moment.
    const kept = (saved.at(-1) as Record<string, { workflows: TrackedWorkflow[] }>).E!.workflows[0]!;
    assert.equal(kept.pollingStopped, 'error');
    assert.equal(kept.lastError, err.message);
    assert.equal(
      kept.lastErrorSaid?.message,
      'No workflow "{0}" on this environment (404). This is final: retrying will not make it appear.',
    );
    // Read back (a restart), then shown in English, then in another language.
    const w = new WorkflowStore(saved.at(-1), () => {}).workflow(ENV, 'wf_1')!;
    assert.equal(workflowDescription(w), 'processing · polling stopped by an error');
    assert.match(workflowTooltip(w, 2), /Polling stopped: polling stopped by an error\. Refresh to read it again\./);
    assert.match(workflowTooltip(w, 2), /Last error: No workflow "wf\\_1" on this environment/);
    inPseudoLocale(() => {
      for (const shown of [workflowDescription(w), workflowAccessibleLabel(w), workflowTooltip(w, 2)])
        assert.equal(
          plainLetters(
            withoutValues(
              shown,
              'Appraisal',
              'Standard',
              'wf_1',
              'wf\\_1',
              'lastPolledAt',
              'correlationId',
              'workflowId',
              'runId',
              'cid\\-1',
              'wfrun\\_1',
              'sess\\-1',
              '1970\\-01\\-01T00:00:00\\.001Z',
            ),
          ),
          '',
          shown,
        );
      assert.equal(plainLetters(workflowDescription({ ...w, pollingStopped: 'deadline' })), '');
    });
  });

  it('a reason written as text by an older version is shown as it is', () => {
    assert.equal(
      workflowDescription({ ...base, pollingStopped: 'Abfragefrist erreicht' }),
      'processing · Abfragefrist erreicht',
    );
    // A stored Said that is not one (a hand-edited state) falls back to the English.
    const odd = { ...base, lastError: 'boom', lastErrorSaid: { values: 3 } as never };
    assert.match(workflowTooltip(odd, 1), /Last error: boom/);
  });
});

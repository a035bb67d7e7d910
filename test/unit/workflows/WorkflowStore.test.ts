import assert from 'node:assert/strict';
import {
  MAX_WORKFLOWS_PER_ENVIRONMENT,
  WorkflowStore,
  type StoreSnapshot,
} from '../../../src/core/workflows/WorkflowStore';
import { readWorkflowEnvelope, type WorkflowEnvelope } from '../../../src/core/workflows/workflowTypes';
import { CUT_NOTE_KEY, MAX_KEPT_ENVELOPE_BYTES } from '../../../src/core/workflows/boundedEnvelope';

function envelope(id: string, status: string, sessionId = 's1'): WorkflowEnvelope {
  return {
    workflow: {
      workflowId: id,
      runId: `run-${id}`,
      status,
      sessionId,
      correlationId: `c-${id}`,
      product: { service: 'A', model: 'B' },
      productType: 'A',
      productName: 'A B',
      reconfirmAvailable: status === 'complete',
    },
  };
}

const SVC = 'Sandbox@http://127.0.0.1:1+http://127.0.0.1:1';
/** Environment values as the store sees them: the name it persists under, the service it was read from. */
const SANDBOX = { name: 'Sandbox', key: SVC };
const STAGING = { name: 'Staging', key: 'Staging@https://staging.example+https://staging.example' };
const E = { name: 'E', key: 'E@https://e.example+https://e.example' };

describe('WorkflowStore', () => {
  let saved: StoreSnapshot[];
  let store: WorkflowStore;
  beforeEach(() => {
    saved = [];
    store = new WorkflowStore(undefined, (s) => void saved.push(JSON.parse(JSON.stringify(s))));
  });

  it('remembers sessions per environment, once each, and persists every change', () => {
    assert.equal(store.addSession(SANDBOX, ' s1 '), true);
    assert.equal(store.addSession(SANDBOX, 's1'), false);
    store.addSession(STAGING, 's9');
    assert.deepEqual(store.sessions(SANDBOX), ['s1']);
    assert.deepEqual(store.sessions(STAGING), ['s9']);
    assert.deepEqual(saved.at(-1), {
      Sandbox: { sessions: ['s1'], workflows: [] },
      Staging: { sessions: ['s9'], workflows: [] },
    });
    assert.throws(() => store.addSession(SANDBOX, '  '), /session id is required/);
  });

  it('records a started workflow with its correlationId and keeps its start time across reads', () => {
    const first = store.upsertFromEnvelope(SANDBOX, envelope('w1', 'processing'), { now: 1000 });
    assert.equal(first.startedAt, 1000);
    assert.deepEqual(store.sessions(SANDBOX), ['s1'], 'the session is added with its first workflow');
    store.upsertFromEnvelope(SANDBOX, envelope('w1', 'complete'), { now: 5000 });
    const w = store.workflow(SANDBOX, 'w1')!;
    assert.equal(w.status, 'complete');
    assert.equal(w.startedAt, 1000);
    assert.equal(w.lastPolledAt, 5000);
    assert.equal(w.reconfirmAvailable, true);
    assert.equal(store.findByRunId(SANDBOX, 'run-w1')?.workflowId, 'w1');
    assert.deepEqual(store.live(SANDBOX), [], 'a terminal workflow is not live');
  });

  it('live() leaves out workflows whose polling stopped; a refresh resumes them', () => {
    store.upsertFromEnvelope(SANDBOX, envelope('w1', 'processing'), { now: 1 });
    store.markWorkflow(SANDBOX, 'w1', { pollingStopped: 'deadline' });
    assert.deepEqual(store.live(SANDBOX), []);
    store.resumePolling(SANDBOX, 'w1', 99);
    assert.deepEqual(
      store.live(SANDBOX).map((w) => [w.workflowId, w.startedAt]),
      [['w1', 99]],
    );
  });

  it('removing a session forgets its workflows; removing a workflow forgets only it', () => {
    store.upsertFromEnvelope(SANDBOX, envelope('w1', 'processing', 's1'), { now: 1 });
    store.upsertFromEnvelope(SANDBOX, envelope('w2', 'processing', 's2'), { now: 1 });
    store.upsertFromEnvelope(SANDBOX, envelope('w3', 'processing', 's2'), { now: 1 });
    store.removeWorkflow(SANDBOX, 'w3');
    assert.deepEqual(
      store.workflows(SANDBOX, 's2').map((w) => w.workflowId),
      ['w2'],
    );
    store.removeSession(SANDBOX, 's1');
    assert.deepEqual(store.sessions(SANDBOX), ['s2']);
    assert.deepEqual(
      store.workflows(SANDBOX).map((w) => w.workflowId),
      ['w2'],
    );
  });

  it('is bounded per environment (oldest forgotten first)', () => {
    for (let i = 0; i < MAX_WORKFLOWS_PER_ENVIRONMENT + 5; i++)
      store.upsertFromEnvelope(E, envelope(`w${i}`, 'processing'), { now: i });
    const ids = store.workflows(E).map((w) => w.workflowId);
    assert.equal(ids.length, MAX_WORKFLOWS_PER_ENVIRONMENT);
    assert.equal(ids[0], 'w5');
  });

  it('restores from storage, dropping malformed entries instead of throwing', () => {
    const restored = new WorkflowStore(
      {
        Sandbox: {
          sessions: ['s1', 's1', 7, ''],
          workflows: [{ workflowId: 'w1', sessionId: 's1', status: 'complete' }, { nope: true }, null],
        },
        Broken: 'x',
      },
      () => {},
    );
    assert.deepEqual(restored.sessions(SANDBOX), ['s1']);
    assert.deepEqual(
      restored.workflows(SANDBOX).map((w) => w.workflowId),
      ['w1'],
    );
    assert.deepEqual(restored.sessions({ name: 'Broken' }), []);
    assert.doesNotThrow(() => new WorkflowStore('garbage', () => {}));
  });

  it('workflows belong to the service they were read from: another service for the name forgets them, sessions stay', () => {
    store.addSession(SANDBOX, 's0');
    store.upsertFromEnvelope(SANDBOX, envelope('w1', 'processing'), { now: 1 });
    store.follow(SANDBOX);
    assert.deepEqual(
      store.workflows(SANDBOX).map((w) => w.workflowId),
      ['w1'],
      'the same service keeps them',
    );
    const restarted = { name: 'Sandbox', key: 'Sandbox@http://127.0.0.1:2+http://127.0.0.1:2' };
    assert.deepEqual(store.workflows(restarted), [], 'a value of another service never sees them, even unfollowed');
    store.follow(restarted);
    assert.deepEqual(store.workflows(restarted), [], 'a restarted sandbox never knew w1');
    assert.deepEqual(store.workflows(SANDBOX), [], 'forgotten, not only hidden');
    assert.deepEqual(store.sessions(SANDBOX), ['s0', 's1']);
    assert.equal(saved.at(-1)!.Sandbox!.service, restarted.key);
    assert.deepEqual(saved.at(-1)!.Sandbox!.workflows, []);
    store.upsertFromEnvelope(SANDBOX, envelope('w2', 'processing'), { now: 2 });
    assert.deepEqual(
      store.workflows(SANDBOX).map((w) => w.workflowId),
      ['w2'],
      'a write from another service replaces them too',
    );
  });

  it('a snapshot saved before services were recorded adopts the first service it meets, keeping its workflows', () => {
    const old = new WorkflowStore(
      { Staging: { sessions: ['s1'], workflows: [{ workflowId: 'w1', sessionId: 's1', status: 'processing' }] } },
      () => {},
    );
    const a = { name: 'Staging', key: 'Staging@https://a+https://a' };
    old.follow(a);
    assert.deepEqual(
      old.workflows(a).map((w) => w.workflowId),
      ['w1'],
    );
    const b = { name: 'Staging', key: 'Staging@https://b+https://b' };
    old.follow(b);
    assert.deepEqual(old.workflows(b), []);
  });

  it('a failing persist is reported as an event, and the change is kept in memory', async () => {
    const errors: Error[] = [];
    const s = new WorkflowStore(undefined, () => Promise.reject(new Error('ENOSPC: no space left on device')));
    s.on('error-persisting', (e: Error) => errors.push(e));
    s.addSession(SANDBOX, 's1');
    await new Promise((r) => setImmediate(r));
    assert.match(errors[0]!.message, /ENOSPC/);
    assert.deepEqual(s.sessions(SANDBOX), ['s1']);
  });

  it('what it keeps is bounded in bytes: a huge answer keeps its known fields under a note; 200 of them stay a few MiB', () => {
    const huge = (id: string): WorkflowEnvelope => ({
      ...envelope(id, 'processing'),
      workflow: {
        ...envelope(id, 'processing').workflow,
        ordered: 'o'.repeat(1_000_000),
        productName: 'n'.repeat(5000),
      },
      messages: Array.from({ length: 1000 }, (_, i) => ({ code: 'INFO', text: `${i} `.repeat(200) })),
      links: {
        self: { href: `https://svc.example/w/${id}` },
        reconfirm: { href: `https://svc.example/w/${id}`, method: 'POST' },
      },
    });
    const small = envelope('w-small', 'processing');
    assert.equal(
      store.upsertFromEnvelope(SANDBOX, small, { now: 1 }).envelope,
      small,
      'a small answer is kept whole, as it came',
    );

    const kept = store.upsertFromEnvelope(SANDBOX, huge('w-huge'), { now: 2 });
    const text = JSON.stringify(kept.envelope);
    assert.ok(text.length <= MAX_KEPT_ENVELOPE_BYTES, `${text.length} bytes kept`);
    assert.match(
      (kept.envelope as unknown as Record<string, string>)[CUT_NOTE_KEY]!,
      /^The service answered \d+ bytes; the explorer keeps at most 16384/,
    );
    assert.deepEqual(
      [kept.workflowId, kept.envelope!.workflow.runId, kept.envelope!.workflow.sessionId],
      ['w-huge', 'run-w-huge', 's1'],
      'ids exact',
    );
    assert.equal(kept.envelope!.links?.reconfirm.href, 'https://svc.example/w/w-huge', 'a short link kept whole');
    assert.equal(kept.messages?.length, 5);
    assert.equal(kept.envelope!.workflow.productName.length, 513);

    for (let i = 0; i < MAX_WORKFLOWS_PER_ENVIRONMENT; i++)
      store.upsertFromEnvelope(SANDBOX, huge(`w${i}`), { now: 3 + i });
    const persisted = Buffer.byteLength(JSON.stringify(saved.at(-1)));
    assert.ok(
      persisted < 5 * 1024 * 1024,
      `${persisted} bytes persisted for ${MAX_WORKFLOWS_PER_ENVIRONMENT} answers of over 1 MB`,
    );
  });

  it('an answer whose ids are absurdly long is not a workflow answer', () => {
    assert.equal(readWorkflowEnvelope(envelope('w'.repeat(1025), 'processing')), undefined);
    assert.equal(
      readWorkflowEnvelope({ workflow: { ...envelope('w1', 'processing').workflow, sessionId: 's'.repeat(5000) } }),
      undefined,
    );
    assert.ok(readWorkflowEnvelope(envelope('w'.repeat(1000), 'processing')), 'long, but within bounds');
  });
});

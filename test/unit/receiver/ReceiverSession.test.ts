// The receiver session every face configures: one start and stop order (receiver, public address, endpoints), a
// public address that fails leaves the receiver up on loopback, and its events say what happened.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReceiverSession, type EndpointRegistration } from '../../../src/core/receiver';
import type { PublicAddressContext, PublicAddressProvider } from '../../../src/core/receiver';
import { SystemClock } from '../../../src/core/time/clock';

/** What happened, in order, across the endpoint and the public address. */
function recorder(): {
  steps: string[];
  endpoint: EndpointRegistration;
  address: (fail?: string) => PublicAddressProvider;
} {
  const steps: string[] = [];
  return {
    steps,
    endpoint: {
      name: 'a test endpoint',
      register: async (url) => void steps.push(`register ${url}`),
      unregister: async (url) => void steps.push(`unregister ${url}`),
    },
    address: (fail) => ({
      source: 'test',
      tunnelState: 'closed',
      url: () => (fail ? undefined : 'https://public.test/webhooks'),
      open: async (ctx: PublicAddressContext) => {
        steps.push(`open ${ctx.localUrl}`);
        if (fail) throw new Error(fail);
        ctx.setPublicHosts(['public.test']);
        return { url: 'https://public.test/webhooks' };
      },
      close: () => void steps.push('close address'),
    }),
  };
}

describe('ReceiverSession', () => {
  const clock = new SystemClock();

  it('starts the receiver, then opens the address, then tells the endpoints; stops in reverse', async () => {
    const r = recorder();
    const session = new ReceiverSession({ clock, history: {} });
    const events: string[] = [];
    session.on('started', (s) => events.push(`started ${s.publicUrl}`));
    session.on('stopped', () => events.push('stopped'));
    const started = await session.start({ publicAddress: r.address(), endpoints: [r.endpoint] });
    assert.match(started.url, /^http:\/\/127\.0\.0\.1:\d+\/webhooks$/);
    assert.equal(session.publicUrl, 'https://public.test/webhooks');
    // The public host is answered too (the receiver checks Host).
    const viaPublicName = await fetch(started.url, { method: 'POST', headers: { host: 'public.test' }, body: '{}' });
    assert.equal(viaPublicName.status, 403, 'refused by the verifier, not by the Host check (421)');
    await session.close();
    assert.deepEqual(r.steps, [
      `open ${started.url}`,
      `register ${started.url}`,
      'close address',
      `unregister ${started.url}`,
    ]);
    assert.deepEqual(events, ['started https://public.test/webhooks', 'stopped']);
    assert.equal(session.running, false);
    await assert.rejects(fetch(started.url, { method: 'POST', body: '{}' }));
  });

  it('a public address that fails: the receiver stays up on loopback, the note says why, the error is thrown', async () => {
    const r = recorder();
    const session = new ReceiverSession({ clock, history: {} });
    await assert.rejects(session.start({ publicAddress: r.address('the tunnel server refused') }), /refused/);
    assert.equal(session.running, true);
    assert.equal(session.publicNote, 'did not open: the tunnel server refused');
    const answer = await fetch(session.url!, { method: 'POST', body: '{}' });
    assert.equal(answer.status, 403);
    await session.close();
  });

  it('an endpoint that cannot be told is a warning, not a failed start; each delivery is an event', async () => {
    const session = new ReceiverSession({ clock, history: {} });
    const warnings: string[] = [];
    session.on('endpoint-warning', (m) => warnings.push(m));
    const statuses: number[] = [];
    session.on('delivery', (record) => statuses.push(record.status));
    const failing: EndpointRegistration = {
      name: 'the sandbox at http://127.0.0.1:1',
      register: async () => Promise.reject(new Error('ECONNREFUSED')),
      unregister: async () => Promise.reject(new Error('ECONNREFUSED')),
    };
    const { url } = await session.start({ endpoints: [failing] });
    await fetch(url, { method: 'POST', body: '{}' });
    await session.close();
    assert.deepEqual(statuses, [403]);
    assert.deepEqual(warnings, [
      `the sandbox at http://127.0.0.1:1 was not told this receiver's address ${url}: ECONNREFUSED`,
      `the sandbox at http://127.0.0.1:1 was not told that ${url} stopped: ECONNREFUSED`,
    ]);
  });

  it('close() lets the history file go: another session takes it at once', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'wfs-session-')), 'deliveries.jsonl');
    const first = new ReceiverSession({ clock, history: { file, holderName: 'first' } });
    await first.loadHistory();
    await first.start();
    const early = new ReceiverSession({ clock, history: { file, holderName: 'early' } });
    await assert.rejects(early.loadHistory(), /first/, 'held while the first session runs');
    await first.close();
    const second = new ReceiverSession({ clock, history: { file, holderName: 'second' } });
    await assert.doesNotReject(second.loadHistory());
    await second.close();
  });

  it('a stop while the start is still opening the address waits for it: nothing stays registered or open', async () => {
    const r = recorder();
    let release!: () => void;
    const slow: PublicAddressProvider = {
      ...r.address(),
      open: async (ctx) => {
        r.steps.push(`open ${ctx.localUrl}`);
        await new Promise<void>((resolve) => (release = resolve));
        return { url: 'https://public.test/webhooks' };
      },
    };
    const session = new ReceiverSession({ clock, history: {} });
    const events: string[] = [];
    session.on('started', () => events.push('started'));
    session.on('stopped', () => events.push('stopped'));
    const starting = session.start({ publicAddress: slow, endpoints: [r.endpoint] });
    while (!release) await new Promise((resolve) => setImmediate(resolve));
    const stopping = session.stop();
    release();
    const { url } = await starting;
    await stopping;
    assert.deepEqual(events, ['started', 'stopped']);
    assert.deepEqual(r.steps, [`open ${url}`, `register ${url}`, 'close address', `unregister ${url}`]);
    assert.equal(session.running, false);
    // And a start right after a stop waits for it, then runs again.
    await session.start({ endpoints: [r.endpoint] });
    assert.equal(session.running, true);
    await session.close();
  });
});

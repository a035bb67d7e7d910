// Typed events: each core emitter declares its events and their arguments, so a listener that expects another
// payload, a misspelt event or a wrong emit fails to compile. The @ts-expect-error lines are the test of that:
// `npm run typecheck` fails if any of them compiles.
import type { Said } from '../../../src/core/presentation/said';
import assert from 'node:assert/strict';
import { TypedEmitter } from '../../../src/core/events/TypedEmitter';
import { DeliveryHistory } from '../../../src/core/webhooks/DeliveryHistory';
import type { Receiver } from '../../../src/core/webhooks/Receiver';
import type { Sandbox } from '../../../src/core/sandbox/Sandbox';
import type { WebhookDispatcher } from '../../../src/core/sandbox/webhookDispatcher';
import type { TokenManager } from '../../../src/core/auth/TokenManager';
import type { Tunnel } from '../../../src/core/tunnel/Tunnel';
import type { WorkflowStore } from '../../../src/core/workflows/WorkflowStore';
import type { DeliveryRecord } from '../../../src/core/webhooks/deliveryRecord';

interface PingEvents {
  ping: [number, string];
  done: [];
}

/** Never called: `npm run typecheck` holds it, failing when any @ts-expect-error line below compiles. */
function wrongPayloadsDoNotCompile(
  receiver: Receiver,
  history: DeliveryHistory,
  sandbox: Sandbox,
  dispatcher: WebhookDispatcher,
  tokens: TokenManager,
  tunnel: Tunnel,
  store: WorkflowStore,
): void {
  // Right payloads compile, and a listener may read a subset of one.
  receiver.on('delivery', (r: DeliveryRecord) => r.id);
  receiver.on('verified-event', (e: { record: DeliveryRecord }) => e.record.id);
  receiver.on('failure', (r, err) => [r.id, err]);
  history.on('warning', (text: Said) => text.message.length);
  tunnel.on('state', (s) => s === 'open');
  store.on('changed', (envName: string) => envName);

  // @ts-expect-error: 'delivery' carries the record itself, not { record }
  receiver.on('delivery', (e: { record: DeliveryRecord }) => e.record.id);
  // @ts-expect-error: the record has no field `webhookID` (a renamed field)
  receiver.on('delivery', (r: { webhookID: string }) => r.webhookID);
  // @ts-expect-error: no such event
  receiver.on('deliveries', () => undefined);
  // @ts-expect-error: 'verified-event' carries { event, record }, not the record
  receiver.once('verified-event', (r: DeliveryRecord) => r.id);
  // @ts-expect-error: a history warning is a string, not an Error
  history.on('warning', (e: Error) => e.message);
  // @ts-expect-error: 'compacted' is emitted with the file's length, a number
  history.emit('compacted', 'large');
  // @ts-expect-error: a request event has no `url`
  sandbox.on('request', (e: { url: string }) => e.url);
  // @ts-expect-error: an attempt's status is a number
  dispatcher.on('attempt', (a: { status?: string }) => a.status);
  // @ts-expect-error: a token state event is an object, not the state's name
  tokens.on('state', (s: string) => s);
  // @ts-expect-error: a tunnel warning is an Error
  tunnel.off('warning', (w: string) => w);
  // @ts-expect-error: the store's change names the environment
  store.on('changed', (n: number) => n);
}
void wrongPayloadsDoNotCompile; // referenced, so noUnusedLocals keeps it compiled

describe('TypedEmitter', () => {
  it('delivers an event to its listeners with its arguments; once() fires once; off() removes', () => {
    const e = new TypedEmitter<PingEvents>();
    const seen: string[] = [];
    const each = (n: number, s: string) => seen.push(`on ${n} ${s}`);
    e.on('ping', each);
    e.once('ping', (n, s) => seen.push(`once ${n} ${s}`));
    e.on('done', () => seen.push('done'));
    assert.equal(e.emit('ping', 1, 'a'), true);
    e.emit('ping', 2, 'b');
    e.off('ping', each);
    e.emit('ping', 3, 'c');
    e.emit('done');
    assert.deepEqual(seen, ['on 1 a', 'once 1 a', 'on 2 b', 'done']);
    assert.equal(e.emit('ping', 4, 'd'), false);
  });

  it('is a Node EventEmitter: a core emitter still works with listeners added through its untyped methods', () => {
    const history = new DeliveryHistory();
    const seen: unknown[] = [];
    history.prependListener('warning', (w: unknown) => seen.push(w));
    history.emit('warning', { message: 'w' });
    assert.deepEqual(seen, [{ message: 'w' }]);
  });
});

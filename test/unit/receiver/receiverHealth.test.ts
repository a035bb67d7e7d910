// GET /healthz on the receiver: 200 only once the session is ready (listening, every endpoint told), never a
// delivery, no token needed, the same Host check as a delivery; and the Host rule of --allow-host with every interface.
import assert from 'node:assert/strict';
import { ReceiverSession, type EndpointRegistration } from '../../../src/core/receiver';
import { SystemClock } from '../../../src/core/time/clock';
import { rawRequest } from '../helpers/rawHttp';

const clock = new SystemClock();

/** An endpoint whose registration waits until `release()`: the session is started but not yet ready meanwhile. */
function heldEndpoint(): { endpoint: EndpointRegistration; registering: Promise<string>; release: () => void } {
  let release!: () => void;
  let registered!: (url: string) => void;
  const registering = new Promise<string>((r) => (registered = r));
  const gate = new Promise<void>((r) => (release = r));
  return {
    endpoint: {
      name: 'a sandbox that answers slowly',
      register: async (url) => {
        registered(url);
        await gate;
      },
      unregister: async () => undefined,
    },
    registering,
    release,
  };
}

describe('receiver /healthz', () => {
  it('answers 503 while the endpoints are being told, then 200 {"status":"ok"}; never recorded', async () => {
    const session = new ReceiverSession({ clock, history: {} });
    const deliveries: number[] = [];
    session.on('delivery', (r) => deliveries.push(r.status));
    const held = heldEndpoint();
    const starting = session.start({ endpoints: [held.endpoint] });
    const url = await held.registering;
    const health = new URL('/healthz', url).toString();
    const early = await rawRequest(health);
    assert.equal(early.status, 503);
    assert.deepEqual(early.json(), { status: 'starting', service: 'receiver' });
    held.release();
    await starting;
    const ready = await rawRequest(health);
    assert.equal(ready.status, 200);
    assert.equal(ready.headers['content-type'], 'application/json');
    assert.deepEqual(ready.json(), { status: 'ok', service: 'receiver' });
    assert.equal((await rawRequest(health, { method: 'HEAD' })).status, 200);
    assert.equal((await rawRequest(`${health}?probe=1`)).status, 200, 'a query does not matter');
    // A POST to the webhook path is a delivery (refused: unsigned); the health checks were not.
    assert.equal((await rawRequest(url, { body: '{}', headers: { 'content-type': 'application/json' } })).status, 403);
    await session.close();
    assert.deepEqual(deliveries, [403]);
  });

  it('goes through the Host check: a foreign name gets 421 there too', async () => {
    const session = new ReceiverSession({ clock, history: {} });
    const { url } = await session.start();
    const health = new URL('/healthz', url).toString();
    assert.equal((await rawRequest(health, { headers: { host: 'rebinding.example' } })).status, 421);
    assert.equal((await rawRequest(health, { headers: { host: `localhost:${new URL(url).port}` } })).status, 200);
    await session.close();
  });

  it('bound to every interface: loopback URL here, --allow-host names answered, the first one registered', async () => {
    const session = new ReceiverSession({ clock, history: {} });
    const told: string[] = [];
    const endpoint: EndpointRegistration = {
      name: 'the sandbox',
      register: async (u) => void told.push(`register ${u}`),
      unregister: async (u) => void told.push(`unregister ${u}`),
    };
    const started = await session.start({ host: '0.0.0.0', allowedHosts: ['listen', 'app'], endpoints: [endpoint] });
    const port = new URL(started.url).port;
    assert.equal(started.url, `http://127.0.0.1:${port}/webhooks`);
    assert.equal(started.registeredUrl, `http://listen:${port}/webhooks`);
    const post = (host: string) =>
      rawRequest(started.url, { body: '{}', headers: { host, 'content-type': 'application/json' } });
    assert.equal((await post(`listen:${port}`)).status, 403, 'an allowed name reaches the verifier');
    assert.equal((await post('app')).status, 403);
    assert.equal((await post(`127.0.0.1:${port}`)).status, 403, 'loopback always');
    assert.equal((await post('other')).status, 421);
    await session.close();
    assert.deepEqual(told, [`register ${started.registeredUrl}`, `unregister ${started.registeredUrl}`]);
  });
});

// The public path watch inside a receiver session, on real sockets: the probe the receiver answers without recording
// (and a header it does not know going through the seven steps like any request), a path that stops asking its
// provider to renew, and a tunnel that reconnects under another name being said and checked at once.
import assert from 'node:assert/strict';
import { english } from '../../../src/core/presentation/said';
import { ReceiverSession } from '../../../src/core/receiver';
import type { PublicAddressContext, PublicAddressProvider, PublicPathChange } from '../../../src/core/receiver';
import { SystemClock } from '../../../src/core/time/clock';
import { Receiver } from '../../../src/core/webhooks/Receiver';
import { Verifier } from '../../../src/core/webhooks/Verifier';
import { PATH_PROBE_HEADER } from '../../../src/core/webhooks/pathProbes';
import { freePort } from '../helpers/freePort';

const clock = new SystemClock();
const ISSUERS = [{ issuer: 'https://issuer.test', audience: 'wfs', jwksUrl: 'http://127.0.0.1:9/jwks' }];

async function post(url: string, headers: Record<string, string>): Promise<number> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } });
  await res.arrayBuffer();
  return res.status;
}

describe('public path probes and the session watch', function () {
  this.timeout(20_000);

  it('a pending probe is answered 204 once, and nothing is recorded; an unknown or spent value is a request like any', async () => {
    const receiver = new Receiver({ verifier: new Verifier({ issuers: ISSUERS, clock }), clock });
    const url = await receiver.start();
    const seen: number[] = [];
    receiver.on('delivery', (r) => seen.push(r.status));
    try {
      const probe = receiver.pathProbes.expect();
      assert.equal(await post(url, { [PATH_PROBE_HEADER]: probe.value }), 204);
      assert.equal(probe.arrived, true);
      assert.deepEqual([seen, receiver.history.size], [[], 0], 'the probe is not a delivery');
      assert.equal(await post(url, { [PATH_PROBE_HEADER]: probe.value }), 403, 'a spent value is not a probe');
      assert.equal(await post(url, { [PATH_PROBE_HEADER]: 'guessed' }), 403);
      const withdrawn = receiver.pathProbes.expect();
      withdrawn.done();
      assert.equal(await post(url, { [PATH_PROBE_HEADER]: withdrawn.value }), 403, 'a withdrawn value is not either');
      assert.deepEqual(seen, [403, 403, 403], 'each of those went through the steps and was recorded');
    } finally {
      await receiver.stop();
    }
  });

  it('a path that never reached is said, not renewed; a reconnection under another name is said, then checked at once', async () => {
    const deadUrl = `http://127.0.0.1:${await freePort()}/webhooks`;
    let current = deadUrl;
    const renewed: string[] = [];
    let ctx: PublicAddressContext | undefined;
    const address: PublicAddressProvider = {
      source: 'test',
      tunnelState: 'open',
      url: () => current,
      open: async (c) => {
        ctx = c;
        return { url: current };
      },
      renew: (why) => void renewed.push(typeof why === 'object' ? english(why) : String(why)),
      close: () => undefined,
    };
    const session = new ReceiverSession({ clock, history: {}, issuers: ISSUERS });
    const changes: PublicPathChange[] = [];
    const next = (state: string) =>
      new Promise<PublicPathChange>((resolve) => {
        const seen = (c: PublicPathChange) => c.state === state && (session.off('public-path', seen), resolve(c));
        session.on('public-path', seen);
      });
    session.on('public-path', (c) => changes.push(c));
    const moved: { from: string; to: string; message: string }[] = [];
    session.on('public-address-changed', (c) => moved.push(c));
    const tunnelLines: { changedFrom?: string }[] = [];
    session.on('tunnel', (t) => tunnelLines.push(t));
    try {
      const stopped = next('not-reaching');
      await session.start({ publicAddress: address, pathCheck: { intervalMs: 200 } });
      const down = await stopped;
      assert.equal(down.state === 'not-reaching' && down.result.failedHop, 'connect');
      assert.equal(session.publicPathState, 'not-reaching');
      assert.match(
        down.state === 'not-reaching' ? down.result.detail : '',
        /no connection to 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/,
      );
      assert.deepEqual(renewed, [], 'a path that never carried a delivery is not a dropped tunnel: nothing reopened');

      // The tunnel comes back under another name: here the receiver's own loopback address.
      current = session.url!;
      const back = next('reaching');
      ctx!.tunnelChanged('open', current, true);
      assert.deepEqual(
        moved.map((m) => [m.from, m.to]),
        [[deadUrl, current]],
      );
      assert.match(moved[0]!.message, /Register http:\/\/127\.0\.0\.1:\d+\/webhooks with the service/);
      assert.equal(tunnelLines.at(-1)!.changedFrom, deadUrl);
      const up = await back;
      assert.ok(up.state === 'reaching' && up.downMs !== undefined && up.downMs >= 0);
      assert.equal(session.history.size, 0, 'no check was recorded');
      assert.deepEqual(
        changes.map((c) => c.state),
        ['not-reaching', 'reaching'],
      );
    } finally {
      await session.close();
    }
  });
  it('setPathCheck: false stops the running watch at once; new options start it again, checking at once', async () => {
    const session = new ReceiverSession({ clock, history: {}, issuers: ISSUERS });
    const address: PublicAddressProvider = {
      source: 'test',
      tunnelState: 'open',
      url: () => session.url, // the receiver's own loopback address: a path that carries deliveries
      open: async () => ({ url: session.url }),
      close: () => undefined,
    };
    const reaching = () =>
      new Promise<void>((resolve) => {
        const seen = (c: PublicPathChange) => c.state === 'reaching' && (session.off('public-path', seen), resolve());
        session.on('public-path', seen);
      });
    try {
      session.setPathCheck(false); // not running: nothing to change, nothing thrown
      const first = reaching();
      await session.start({ publicAddress: address, pathCheck: { intervalMs: 60_000 } });
      await first;
      assert.equal(session.publicPathState, 'reaching');
      session.setPathCheck(false);
      assert.equal(session.publicPathState, undefined, 'no watch');
      assert.equal(session.checkPublicPath(), false, 'nothing to check with');
      const again = reaching();
      session.setPathCheck({ intervalMs: 30_000 });
      assert.equal(session.publicPathState, 'unknown', 'a new watch, its first check under way');
      await again;
      assert.equal(session.checkPublicPath(), true);
    } finally {
      await session.close();
    }
  });
});

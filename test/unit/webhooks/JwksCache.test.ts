// One key set's cache on its own: one request per cooldown, a kid refused only on a fetch made after it was asked
// for, "cannot be consulted" (with when to ask again) otherwise, the last good set kept.
import assert from 'node:assert/strict';
import { JwksCache, KeySetError, KeySetUnavailable } from '../../../src/core/webhooks/JwksCache';
import { ManualClock } from '../helpers/manualClock';
import { KeySetServer, newRsaKey, type TestKey } from '../helpers/keySetServer';

describe('JwksCache', () => {
  let server: KeySetServer;
  let clock: ManualClock;
  let k1: TestKey;
  let k2: TestKey;
  let cache: JwksCache;

  before(async () => {
    [k1, k2] = await Promise.all([newRsaKey('k1'), newRsaKey('k2')]);
  });
  beforeEach(async () => {
    server = new KeySetServer();
    await server.start();
    server.keys = [k1.jwk];
    clock = new ManualClock();
    cache = new JwksCache({ jwksUrl: server.url, clock });
  });
  afterEach(() => server.stop());

  const unavailable = async (p: Promise<unknown>): Promise<KeySetUnavailable> => {
    const err = await p.then(
      () => assert.fail('expected the key set to be unavailable'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof KeySetUnavailable, String(err));
    return err;
  };
  const refused = async (p: Promise<unknown>): Promise<KeySetError> => {
    const err = await p.then(
      () => assert.fail('expected a refusal'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof KeySetError && !(err instanceof KeySetUnavailable), String(err));
    return err;
  };

  it('an unknown kid within the cooldown after a fetch does not refetch: unavailable, with the time left as Retry-After', async () => {
    await cache.getKey('k1');
    clock.advance(4_000);
    const err = await unavailable(cache.getKey('k2'));
    assert.equal(err.retryAfterMs, 11_000);
    assert.match(
      err.message,
      /^could not be consulted: the kid "k2" is not in the key set fetched 4 s ago, and the set was not fetched again since the delivery arrived \(key-set requests are limited to one every 15 s and 5 a minute\); the next key-set request is possible in 11 s$/,
    );
    assert.equal(server.requests, 1);
  });

  it('after the cooldown, an unknown kid refetches: a rotated-in key is found; a kid still absent is refused, naming what the set holds', async () => {
    await cache.getKey('k1');
    server.keys = [k2.jwk, k1.jwk];
    clock.advance(15_000);
    assert.ok(await cache.getKey('k2'));
    clock.advance(15_000);
    const err = await refused(cache.getKey('k3'));
    assert.equal(
      err.message,
      'no key with kid "k3": the key set, fetched after the delivery arrived, holds 2 kids: "k2", "k1"',
    );
    assert.equal(server.requests, 3);
  });

  it('a lookup that joins a fetch begun before it asked is not refused by that fetch: unavailable (the key may have been published since)', async () => {
    const first = cache.getKey('k1');
    const joined = cache.getKey('k2');
    assert.ok(await first);
    await unavailable(joined);
    assert.equal(server.requests, 1);
  });

  it('a flood over an hour: one key-set request per 15 s at most, never more than 5 in any minute', async () => {
    const times: number[] = [];
    let seen = 0;
    for (let s = 0; s < 3600; s += 1) {
      clock.advance(1000);
      await cache.getKey(`made-up-${s}`).catch(() => undefined);
      if (server.requests > seen) {
        seen = server.requests;
        times.push(clock.now());
      }
    }
    for (let i = 1; i < times.length; i++) assert.ok(times[i]! - times[i - 1]! >= 15_000);
    for (const t of times) assert.ok(times.filter((u) => u > t - 60_000 && u <= t).length <= 5);
    assert.ok(server.requests <= 241, `${server.requests}`);
  });

  it('the key set down: unavailable, not refused; the last good set keeps serving the kids it holds; back, it is fetched again', async () => {
    await cache.getKey('k1');
    server.failing = true;
    clock.advance(3600_000);
    assert.ok(await cache.getKey('k1'), 'stale, the refresh failed: the last good set');
    const err = await unavailable(cache.getKey('k2'));
    assert.match(err.message, /the last request failed: key set answered 503/);
    assert.equal(server.requests, 2);
    server.failing = false;
    server.keys = [k2.jwk];
    clock.advance(err.retryAfterMs);
    assert.ok(await cache.getKey('k2'));
    assert.equal(server.requests, 3);
  });

  it('never fetched: the first lookup fetches at once; when that fails, the next ones are unavailable without a request until the cooldown ends', async () => {
    server.failing = true;
    for (let i = 0; i < 10; i++) await unavailable(cache.getKey('k1'));
    assert.equal(server.requests, 1);
    clock.advance(15_000);
    server.failing = false;
    assert.ok(await cache.getKey('k1'));
    assert.equal(server.requests, 2);
  });

  it('a kid the set holds but cannot be used (not RS256, under 2048 bits) is refused, not unavailable', async () => {
    server.keys = [{ ...k1.jwk, alg: 'RS512' }];
    await refused(cache.getKey('k1'));
  });
});

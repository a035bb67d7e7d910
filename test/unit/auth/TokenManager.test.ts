// TokenManager against the sandbox over real HTTP, on a virtual clock shared with the sandbox.
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { MemorySecretStore } from '../../../src/core/auth/secretStore';
import { SignInRequired } from '../../../src/core/auth/authErrors';
import {
  TokenManager,
  secretKeyFor,
  type TokenStateEvent,
  type AliasPlacement,
  type SecretStorageFailure,
} from '../../../src/core/auth/TokenManager';
import { REFRESH_PATH, startSandbox, type SandboxFixture } from '../helpers/sandboxFixture';
import { untilTrue as waitFor } from '../helpers/eventLoop';

describe('TokenManager', () => {
  let f: SandboxFixture;
  let store: MemorySecretStore;
  let tm: TokenManager;
  let refreshRequests: number;
  let states: TokenStateEvent[];
  const creds = () => ({ username: f.info.username, password: f.info.password });
  const make = (extra: Partial<ConstructorParameters<typeof TokenManager>[0]> = {}) => {
    const m = new TokenManager({ secretScope: 'sandbox', baseUrl: f.info.baseUrl, store, clock: f.clock, ...extra });
    m.on('state', (e: TokenStateEvent) => states.push(e));
    return m;
  };

  beforeEach(async () => {
    f = await startSandbox();
    store = new MemorySecretStore();
    refreshRequests = 0;
    states = [];
    f.sandbox.on('request', (e: { path: string }) => {
      if (e.path === REFRESH_PATH) refreshRequests++;
    });
    tm = make();
  });
  afterEach(async () => {
    tm.dispose();
    await f.stop();
  });

  it('signs in, keeps the session only in the secret store, and reports signed-in', async () => {
    const s = await tm.signIn(creds());
    assert.deepEqual(store.keys(), [secretKeyFor('sandbox')]);
    const saved = JSON.parse((await store.get(secretKeyFor('sandbox')))!);
    assert.equal(saved.accessToken, s.accessToken);
    assert.equal(s.accessExpiresAt, f.clock.now() + 3600_000);
    assert.equal(new Date(s.refreshExpiresAt).toISOString(), '2026-01-17T05:00:00.000Z');
    assert.equal(tm.state, 'signed-in');
    assert.equal(states.at(-1)?.state, 'signed-in');
  });

  it('refused credentials raise SignInRequired and store nothing', async () => {
    await assert.rejects(
      tm.signIn({ username: 'demo', password: 'wrong' }),
      (e: unknown) => e instanceof SignInRequired && e.reason === 'credentials-refused',
    );
    assert.deepEqual(store.keys(), []);
  });

  for (const placement of ['body', 'header', 'query'] as AliasPlacement[])
    it(`sends the user alias in the ${placement}`, async () => {
      const m = make({ aliasPlacement: placement });
      const s = await m.signIn({ ...creds(), userAlias: 'ops-bot' });
      assert.equal(decodeJwt(s.accessToken).alias, 'ops-bot');
      assert.equal(s.userAlias, 'ops-bot');
      m.dispose();
    });

  it('returns the same token until one minute before expiry, then refreshes', async () => {
    const s = await tm.signIn(creds());
    f.clock.advance(3600_000 - 60_001); // timers of the manager fire too: not yet due
    assert.equal(await tm.getAccessToken(), s.accessToken);
    assert.equal(refreshRequests, 0);
    tm.dispose(); // stop the scheduled refresh so only the on-demand path is measured
    tm = make();
    await tm.load();
    f.clock.advance(1);
    const t = await tm.getAccessToken();
    assert.notEqual(t, s.accessToken);
    assert.equal(refreshRequests, 1);
  });

  it('refreshes on its own timer one minute before expiry', async () => {
    const s = await tm.signIn(creds());
    await f.clock.advanceAsync(3600_000 - 60_000);
    await waitFor(() => tm.current?.accessToken !== s.accessToken);
    assert.equal(refreshRequests, 1);
    assert.equal(tm.current!.accessExpiresAt, f.clock.now() + 3600_000);
    assert.ok(states.some((e) => e.state === 'refreshing'));
  });

  it('single-flight: 100 concurrent callers at expiry cause exactly one refresh request', async () => {
    await tm.signIn(creds());
    tm.dispose();
    tm = make();
    await tm.load();
    f.clock.advance(3600_000); // the stored token has expired; no timer of this manager ran (virtual clock)
    const tokens = await Promise.all(Array.from({ length: 100 }, () => tm.getAccessToken()));
    assert.equal(refreshRequests, 1);
    assert.equal(new Set(tokens).size, 1);
  });

  it('freshAccessToken after a 401 refreshes once even for many callers holding the rejected token', async () => {
    const s = await tm.signIn(creds());
    const tokens = await Promise.all(Array.from({ length: 10 }, () => tm.freshAccessToken(s.accessToken)));
    assert.equal(refreshRequests, 1);
    assert.equal(new Set(tokens).size, 1);
    assert.notEqual(tokens[0], s.accessToken);
    assert.equal(
      await tm.freshAccessToken(s.accessToken),
      tokens[0],
      'a token already replaced is not refreshed again',
    );
    assert.equal(refreshRequests, 1);
  });

  it('reports lapsing-soon 30 minutes before the refresh token lapses, then expired, and asks for sign-in', async () => {
    // Access tokens that outlive the refresh token, so no access refresh interleaves with the lapse.
    await f.stop();
    f = await startSandbox({ accessTokenTtlSeconds: 3 * 86400 });
    f.sandbox.on('request', (e: { path: string }) => {
      if (e.path === REFRESH_PATH) refreshRequests++;
    });
    tm.dispose();
    tm = make();
    await tm.signIn(creds());
    const lapse = tm.current!.refreshExpiresAt;
    f.clock.advance(lapse - f.clock.now() - 30 * 60_000);
    assert.equal(states.at(-1)?.state, 'lapsing-soon');
    f.clock.advance(30 * 60_000);
    await waitFor(() => states.at(-1)?.state === 'expired' && tm.current === undefined);
    await assert.rejects(
      tm.getAccessToken(),
      (e: unknown) => e instanceof SignInRequired && e.reason === 'refresh-lapsed',
    );
    assert.equal(refreshRequests, 0, 'a lapsed refresh token is not even tried');
    assert.equal(await store.get(secretKeyFor('sandbox')), undefined);
  });

  it('signs in again silently when credentials are supplied and the refresh token lapsed', async () => {
    const m = make({ silentCredentials: async () => creds() });
    await m.signIn(creds());
    m.dispose();
    const n = make({ silentCredentials: async () => creds() });
    await n.load();
    f.clock.advance(3 * 86400_000);
    const t = await n.getAccessToken();
    assert.ok(t);
    assert.equal(n.state, 'signed-in');
    n.dispose();
  });

  it('a refused refresh token (the service forgot it) leads to sign-in', async () => {
    await tm.signIn(creds());
    await f.control('POST', 'reset'); // the sandbox drops every refresh token
    f.clock.advance(3600_000);
    await assert.rejects(
      tm.getAccessToken(),
      (e: unknown) => e instanceof SignInRequired && e.reason === 'refresh-refused',
    );
    assert.equal(tm.state, 'expired');
  });

  it('a corrupt stored entry loads as signed out', async () => {
    await store.store(secretKeyFor('sandbox'), '{not json');
    assert.equal(await tm.load(), undefined);
    assert.equal(tm.state, 'signed-out');
  });

  it('follows sign-in and sign-out made by another window through the store', async () => {
    const other = make();
    await other.signIn(creds());
    await waitFor(() => tm.state === 'signed-in');
    assert.equal(tm.current?.username, 'demo');
    await other.signOut();
    await waitFor(() => tm.state === 'signed-out');
    other.dispose();
  });

  it('sign-out clears the secret store', async () => {
    await tm.signIn(creds());
    await tm.signOut();
    assert.deepEqual(store.keys(), []);
    await assert.rejects(tm.getAccessToken(), SignInRequired);
  });

  it('a read of the store that began before a sign-in does not undo it (the first load racing the first sign-in)', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const slowStore = new MemorySecretStore();
    const get = slowStore.get.bind(slowStore);
    let first = true;
    slowStore.get = async (key: string) => {
      const value = await get(key); // read now (nothing stored yet) ...
      if (first) {
        first = false;
        await held; // ... and answer only after the sign-in below
      }
      return value;
    };
    const m = make({ store: slowStore });
    const loading = m.load();
    await m.signIn(creds());
    release();
    await loading;
    assert.equal(m.state, 'signed-in', 'the stale read left the new session alone');
    assert.ok(m.current?.accessToken);
    assert.ok(await slowStore.get(secretKeyFor('sandbox')));
    m.dispose();
  });

  describe('a secret store that fails (a locked or missing OS keyring)', () => {
    /** Fails the operations named, as VS Code's SecretStorage does when the keyring refuses. */
    class FailingStore extends MemorySecretStore {
      constructor(public failing: ReadonlySet<'get' | 'store' | 'delete'>) {
        super();
      }
      override async get(key: string): Promise<string | undefined> {
        if (this.failing.has('get')) throw new Error('the keyring is locked');
        return super.get(key);
      }
      override async store(key: string, value: string): Promise<void> {
        if (this.failing.has('store')) throw new Error('Cannot create an item in a locked collection');
        return super.store(key, value);
      }
      override async delete(key: string): Promise<void> {
        if (this.failing.has('delete')) throw new Error('the keyring is locked');
        return super.delete(key);
      }
    }
    const failuresOf = (m: TokenManager) => {
      const seen: SecretStorageFailure[] = [];
      m.on('storage-error', (f: SecretStorageFailure) => seen.push(f));
      return seen;
    };

    it('a sign-in the store cannot keep still works in memory, and says the write failed', async () => {
      const failing = new FailingStore(new Set(['store']));
      const m = make({ store: failing });
      const failures = failuresOf(m);
      const session = await m.signIn(creds());
      assert.equal(m.state, 'signed-in');
      assert.equal(await m.getAccessToken(), session.accessToken);
      assert.deepEqual(
        failures.map((f) => [f.operation, f.error.message]),
        [['write', 'Cannot create an item in a locked collection']],
      );
      assert.deepEqual(failing.keys(), [], 'nothing was kept anywhere else');
      m.dispose();
    });

    it('an unreadable store loads as signed out and says the read failed', async () => {
      const m = make({ store: new FailingStore(new Set(['get'])) });
      const failures = failuresOf(m);
      assert.equal(await m.load(), undefined);
      assert.equal(m.state, 'signed-out');
      assert.deepEqual(
        failures.map((f) => f.operation),
        ['read'],
      );
      m.dispose();
    });

    it('a sign-out the store cannot remove is signed out here, and rejects saying the stored sign-in is still there', async () => {
      const failing = new FailingStore(new Set());
      const m = make({ store: failing });
      await m.signIn(creds());
      failing.failing = new Set(['delete']);
      await assert.rejects(
        m.signOut(),
        /^Error: signed out in this window, but the secret storage did not remove the stored sign-in \(the keyring is locked\); sign out again once it works$/,
      );
      assert.equal(m.state, 'signed-out');
      await assert.rejects(m.getAccessToken(), SignInRequired);
      m.dispose();
    });
  });
});

// Sign-in, refresh and the token lifecycle (spec: Authentication 1–5, Limits; docs/design.md).
// - refresh 60 s before the access token expires, on a timer and on demand;
// - one refresh in flight at a time, shared by every caller;
// - the refresh token lapses at issue + 24 h rounded up to midnight America/New_York; then sign in again;
// - tokens live only in the SecretStore.
import { classifyResponse } from '../http/classifyResponse';
import { assertCredentialOrigin } from '../http/credentialOrigin';
import { REFRESH_PATH, SIGN_IN_PATH, joinUrl } from '../http/paths';
import { httpRequest } from '../http/request';
import { RateGate, sendThroughGate } from '../http/rateGate';
import { type ServiceError, UnexpectedResponse } from '../http/serviceErrors';
import type { Clock, TimerHandle } from '../time/clock';
import { SignInRequired } from './authErrors';
import { refreshTokenExpiry } from './refreshTokenExpiry';
import type { Disposable, SecretStore } from './secretStore';
import { TypedEmitter } from '../events/TypedEmitter';
import { said, type Said } from '../presentation/said';

const REFRESH_LEAD_MS = 60_000;
const SCHEDULED_RETRY_MS = 30_000;
const LAPSED_ADVICE = said('The sign-in has lapsed (the refresh token expired at midnight US Eastern): sign in again.');
const SIGNED_OUT_ADVICE = said('Not signed in: sign in to this environment first.');

/** Where sign-in carries the user alias; the spec does not show it (Endpoints 1). */
export type AliasPlacement = 'body' | 'header' | 'query';

export interface Credentials {
  username: string;
  password: string;
  userAlias?: string;
}

/** What is kept in the SecretStore for one environment. */
export interface TokenSession {
  username: string;
  userAlias?: string;
  accessToken: string;
  refreshToken: string;
  /** Epoch ms. */
  accessExpiresAt: number;
  refreshIssuedAt: number;
  refreshExpiresAt: number;
}

export type TokenState = 'signed-out' | 'signed-in' | 'refreshing' | 'lapsing-soon' | 'expired';

export interface TokenStateEvent {
  state: TokenState;
  username?: string;
  accessExpiresAt?: number;
  refreshExpiresAt?: number;
  error?: ServiceError | Error;
}

export interface TokenManagerOptions {
  /** Where the session is kept: the Environment's key (secretScope.ts: its name and origins), from which the
   * secret's key is derived, so a session is only ever found for the origins it was issued by. */
  secretScope: string;
  baseUrl: string;
  store: SecretStore;
  clock: Clock;
  aliasPlacement?: AliasPlacement;
  timeoutMs?: number;
  /** Warn this long before the refresh token lapses. */
  lapsingSoonMs?: number;
  /** Supplies credentials for a silent re-sign-in when the refresh token lapsed (CLI: env; extension: opt-in). */
  silentCredentials?: () => Promise<Credentials | undefined>;
  /** The service's shared rate throttle: sign-in and refresh wait out a backoff another request met, and back off
   * on their own 429s through it. Without one, the manager keeps its own. */
  gate?: RateGate;
}

export interface AccessTokenProvider {
  getAccessToken(): Promise<string>;
  /** A token other than `rejected` (the one a 401/403 answered): refreshed, or re-signed-in. */
  freshAccessToken(rejected: string): Promise<string>;
}

/** The secret store failed (an OS keyring that is locked or missing): what it was asked to do, and why it could
 * not. Emitted as 'storage-error'; the sign-in goes on in memory, so the user is told, never stopped. */
export interface SecretStorageFailure {
  operation: 'read' | 'write' | 'remove';
  error: Error;
}

export function secretKeyFor(secretScope: string): string {
  return `wfs.tokens.${secretScope}`;
}

export interface TokenManagerEvents {
  /** The state changed, or an operation failed (then with its error). */
  state: [TokenStateEvent];
  'storage-error': [SecretStorageFailure];
}

export class TokenManager extends TypedEmitter<TokenManagerEvents> implements AccessTokenProvider {
  private session?: TokenSession;
  private inFlight?: Promise<TokenSession>;
  private refreshTimer?: TimerHandle;
  private lapseTimer?: TimerHandle;
  private lapsingTimer?: TimerHandle;
  private currentState: TokenState = 'signed-out';
  private readonly storeSubscription?: Disposable;
  private readonly key: string;
  private readonly rateGate: RateGate;
  /** Counts this manager's own writes to the store, so a read that started before one does not undo it. */
  private writes = 0;

  constructor(private readonly options: TokenManagerOptions) {
    super();
    this.key = secretKeyFor(options.secretScope);
    this.rateGate = options.gate ?? new RateGate(options.clock);
    this.storeSubscription = options.store.onDidChange?.((k) => {
      if (k === this.key) void this.load();
    });
  }

  get state(): TokenState {
    return this.currentState;
  }

  get current(): Readonly<TokenSession> | undefined {
    return this.session;
  }

  /** Reads the stored session (e.g. at start-up, or when another window changed it). */
  async load(): Promise<TokenSession | undefined> {
    const writesBefore = this.writes;
    let raw: string | undefined;
    try {
      raw = await this.options.store.get(this.key);
    } catch (err) {
      // Unreadable storage reads as signed out: a sign-in then works in memory, and says it could not be kept.
      this.storageFailed('read', err);
      raw = undefined;
    }
    // A sign-in, refresh or sign-out here while the store was read is newer than what was read.
    if (this.writes !== writesBefore) return this.session;
    let parsed: TokenSession | undefined;
    try {
      parsed = raw ? (JSON.parse(raw) as TokenSession) : undefined;
    } catch {
      parsed = undefined; // a corrupt entry is treated as signed out, never thrown at the user
    }
    this.session =
      parsed && typeof parsed.accessToken === 'string' && typeof parsed.refreshToken === 'string' ? parsed : undefined;
    this.schedule();
    this.setState(this.session ? this.stateForSession() : 'signed-out');
    return this.session;
  }

  async signIn(credentials: Credentials): Promise<TokenSession> {
    this.inFlight = this.doSignIn(credentials);
    try {
      return await this.inFlight;
    } finally {
      this.inFlight = undefined;
    }
  }

  /** Signed out here at once; rejects, after that, when the stored session could not be removed. */
  async signOut(): Promise<void> {
    this.clearTimers();
    this.session = undefined;
    this.writes++;
    this.setState('signed-out');
    try {
      await this.options.store.delete(this.key);
    } catch (err) {
      throw new Error(
        `signed out in this window, but the secret storage did not remove the stored sign-in (${(err as Error).message}); sign out again once it works`,
      );
    }
  }

  /** A valid access token, refreshing first when it expires within a minute. */
  async getAccessToken(): Promise<string> {
    if (this.inFlight) return (await this.inFlight).accessToken;
    const s = this.session;
    if (!s) {
      if (this.currentState === 'expired') throw new SignInRequired('refresh-lapsed', LAPSED_ADVICE);
      throw new SignInRequired('signed-out', SIGNED_OUT_ADVICE);
    }
    if (this.options.clock.now() < s.accessExpiresAt - REFRESH_LEAD_MS) return s.accessToken;
    return (await this.refresh()).accessToken;
  }

  async freshAccessToken(rejected: string): Promise<string> {
    if (this.inFlight) return (await this.inFlight).accessToken;
    if (this.session && this.session.accessToken !== rejected) return this.session.accessToken;
    return (await this.refresh()).accessToken;
  }

  /** Refreshes now; concurrent callers share one request (single-flight). */
  refresh(): Promise<TokenSession> {
    this.inFlight ??= this.doRefresh().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  dispose(): void {
    this.clearTimers();
    this.storeSubscription?.dispose();
    this.removeAllListeners();
  }

  /** The service's shared rate throttle, for the clients that call it with this manager's tokens. */
  get gate(): RateGate {
    return this.rateGate;
  }

  private async doSignIn(credentials: Credentials): Promise<TokenSession> {
    assertCredentialOrigin(this.options.baseUrl, said('The service address'));
    const placement = this.options.aliasPlacement ?? 'body';
    const alias = credentials.userAlias?.trim() || undefined;
    let url = joinUrl(this.options.baseUrl, SIGN_IN_PATH);
    const body: Record<string, string> = { username: credentials.username, password: credentials.password };
    const headers: Record<string, string> = {};
    if (alias && placement === 'body') body.useralias = alias;
    if (alias && placement === 'header') headers['x-svc-useralias'] = alias;
    if (alias && placement === 'query') url += `?useralias=${encodeURIComponent(alias)}`;
    const { clock } = this.options;
    let issuedAt = 0;
    const sent = await sendThroughGate(this.rateGate, clock, () => {
      issuedAt = clock.now(); // times count from when the answered request left
      return httpRequest({ method: 'POST', url, json: body, headers, timeoutMs: this.options.timeoutMs });
    });
    const res = sent.response;
    const out = classifyResponse(res, {
      operation: 'sign-in',
      backoffs: sent.backoffs,
      backoffMs: sent.elapsedMs,
      url,
    });
    if (!out.ok) {
      if (out.error.status === 401)
        throw new SignInRequired('credentials-refused', out.error.said, {
          status: 401,
          problemType: out.error.problemType,
          instance: out.error.instance,
        });
      throw out.error;
    }
    const tokens = readTokenResponse(out.json, res.status);
    const session: TokenSession = {
      username: credentials.username,
      ...(alias ? { userAlias: alias } : {}),
      accessToken: tokens.access_token,
      refreshToken: tokens.refresh_token,
      accessExpiresAt: issuedAt + tokens.expires_in * 1000,
      refreshIssuedAt: issuedAt,
      refreshExpiresAt: refreshTokenExpiry(issuedAt),
    };
    await this.save(session);
    return session;
  }

  private async doRefresh(): Promise<TokenSession> {
    const s = this.session;
    if (!s) throw new SignInRequired('signed-out', SIGNED_OUT_ADVICE);
    const now = this.options.clock.now();
    if (now >= s.refreshExpiresAt) return this.reSignIn('refresh-lapsed', LAPSED_ADVICE);
    assertCredentialOrigin(this.options.baseUrl, said('The service address'));
    this.setState('refreshing');
    const { clock } = this.options;
    let sentAt = 0;
    let sent;
    try {
      sent = await sendThroughGate(this.rateGate, clock, () => {
        sentAt = clock.now();
        return httpRequest({
          method: 'POST',
          url: joinUrl(this.options.baseUrl, REFRESH_PATH),
          json: { refresh_token: s.refreshToken },
          timeoutMs: this.options.timeoutMs,
        });
      });
    } catch (err) {
      this.setState(this.stateForSession(), err as Error);
      throw err;
    }
    const res = sent.response;
    const out = classifyResponse(res, {
      operation: 'refresh',
      backoffs: sent.backoffs,
      backoffMs: sent.elapsedMs,
      url: joinUrl(this.options.baseUrl, REFRESH_PATH),
    });
    if (!out.ok) {
      if (out.error.status === 401 || out.error.status === 400)
        return this.reSignIn('refresh-refused', said('The refresh token was refused: sign in again.'));
      this.setState(this.stateForSession(), out.error);
      throw out.error;
    }
    const tokens = readTokenResponse(out.json, res.status);
    // Reuse keeps the original lapse time; a new refresh token starts a new 24 h.
    const rotated = tokens.refresh_token !== s.refreshToken;
    const session: TokenSession = {
      ...s,
      accessToken: tokens.access_token,
      refreshToken: tokens.refresh_token,
      // Times count from when the request left (after any shared backoff), as for sign-in.
      accessExpiresAt: sentAt + tokens.expires_in * 1000,
      refreshIssuedAt: rotated ? sentAt : s.refreshIssuedAt,
      refreshExpiresAt: rotated ? refreshTokenExpiry(sentAt) : s.refreshExpiresAt,
    };
    await this.save(session);
    return session;
  }

  private async reSignIn(reason: 'refresh-lapsed' | 'refresh-refused', advice: Said): Promise<TokenSession> {
    const creds = await this.options.silentCredentials?.();
    if (creds) return this.doSignIn(creds);
    this.clearTimers();
    this.session = undefined;
    this.writes++;
    await this.options.store.delete(this.key).catch((e: unknown) => this.storageFailed('remove', e));
    const err = new SignInRequired(reason, advice);
    this.setState('expired', err);
    throw err;
  }

  /** Keeps the session in memory, then in the store: a store that fails leaves it working in memory for as long as
   * this process lives, and says so ('storage-error'), rather than failing a sign-in or refresh that succeeded. */
  private async save(session: TokenSession): Promise<void> {
    this.session = session;
    this.writes++;
    this.schedule();
    this.setState(this.stateForSession());
    try {
      await this.options.store.store(this.key, JSON.stringify(session));
    } catch (err) {
      this.storageFailed('write', err);
    }
  }

  private storageFailed(operation: SecretStorageFailure['operation'], err: unknown): void {
    const failure: SecretStorageFailure = { operation, error: err instanceof Error ? err : new Error(String(err)) };
    this.emit('storage-error', failure);
  }

  private stateForSession(): TokenState {
    const s = this.session;
    if (!s) return 'signed-out';
    const now = this.options.clock.now();
    if (now >= s.refreshExpiresAt) return 'expired';
    if (now >= s.refreshExpiresAt - this.lapsingSoonMs()) return 'lapsing-soon';
    return 'signed-in';
  }

  private lapsingSoonMs(): number {
    return this.options.lapsingSoonMs ?? 30 * 60_000;
  }

  private schedule(): void {
    this.clearTimers();
    const s = this.session;
    if (!s) return;
    const { clock } = this.options;
    const now = clock.now();
    // Refresh one minute before expiry, but never after the refresh token itself lapses.
    const refreshAt = Math.min(s.accessExpiresAt - REFRESH_LEAD_MS, s.refreshExpiresAt);
    this.refreshTimer = clock.setTimeout(() => this.scheduledRefresh(), Math.max(0, refreshAt - now));
    const lapsingAt = s.refreshExpiresAt - this.lapsingSoonMs();
    if (lapsingAt > now)
      this.lapsingTimer = clock.setTimeout(() => this.setState(this.stateForSession()), lapsingAt - now);
    this.lapseTimer = clock.setTimeout(() => this.setState('expired'), Math.max(0, s.refreshExpiresAt - now));
  }

  /** A failed scheduled refresh (e.g. network down) is tried again every 30 s while a session remains. */
  private scheduledRefresh(): void {
    this.refresh().catch(() => {
      if (!this.session || this.currentState === 'expired') return;
      this.options.clock.clearTimeout(this.refreshTimer);
      this.refreshTimer = this.options.clock.setTimeout(() => this.scheduledRefresh(), SCHEDULED_RETRY_MS);
    });
  }

  private clearTimers(): void {
    const { clock } = this.options;
    clock.clearTimeout(this.refreshTimer);
    clock.clearTimeout(this.lapsingTimer);
    clock.clearTimeout(this.lapseTimer);
    this.refreshTimer = this.lapsingTimer = this.lapseTimer = undefined;
  }

  private setState(state: TokenState, error?: ServiceError | Error): void {
    const changed = state !== this.currentState;
    this.currentState = state;
    if (changed || error)
      this.emit('state', {
        state,
        username: this.session?.username,
        accessExpiresAt: this.session?.accessExpiresAt,
        refreshExpiresAt: this.session?.refreshExpiresAt,
        error,
      } satisfies TokenStateEvent);
  }
}

function readTokenResponse(
  json: unknown,
  status: number,
): { access_token: string; refresh_token: string; expires_in: number } {
  const t = json as Record<string, unknown> | undefined;
  if (
    !t ||
    typeof t.access_token !== 'string' ||
    typeof t.refresh_token !== 'string' ||
    typeof t.expires_in !== 'number' ||
    !(t.expires_in > 0)
  )
    throw new UnexpectedResponse(
      'unexpected',
      said('The token response ({0}) lacks access_token, refresh_token or a positive expires_in.', status),
      { status },
    );
  return { access_token: t.access_token, refresh_token: t.refresh_token, expires_in: t.expires_in };
}

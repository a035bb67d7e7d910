// Access tokens (JWTs) and refresh tokens the sandbox issues (spec: Authentication 1–3, Limits).
import { randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { Clock } from '../time/clock';
import { refreshTokenExpiry } from '../auth/refreshTokenExpiry';
import { placeholderValues, type JsonTypeName } from './sandboxProfile';

export interface TokenSubject {
  username: string;
  alias?: string;
}

export interface IssuedTokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

interface RefreshRecord extends TokenSubject {
  issuedAt: number;
  expiresAt: number;
  bytes: number;
}

export type AccessCheck =
  { ok: true; subject: TokenSubject } | { ok: false; reason: 'missing' | 'malformed' | 'invalid' | 'expired' };

/** Refresh tokens remembered (a sign-in each; the sandbox lives in the extension host), and the bytes their
 * usernames and aliases may hold: the spec bounds neither, so a sign-in with a megabyte of alias is taken, and the
 * oldest tokens are forgotten to make room. */
export const MAX_REFRESH_TOKENS = 10_000;
export const MAX_REFRESH_TOKEN_BYTES = 16 * 1024 * 1024;

/** What one remembered refresh token holds, about: its key, times and map slot, and its strings (UTF-16). */
function refreshRecordBytes(key: string, subject: TokenSubject): number {
  return 160 + 2 * (key.length + subject.username.length + (subject.alias?.length ?? 0));
}

export class SandboxTokens {
  private readonly secret = randomBytes(32);
  /** Extra header parameters and claims an environment's access tokens were seen to carry (a sandbox profile). */
  imitate?: { header: string[]; claims: Record<string, JsonTypeName> };
  private readonly refreshTokens = new Map<string, RefreshRecord>();
  private refreshBytes = 0;

  constructor(
    private readonly clock: Clock,
    private readonly issuer: string,
    readonly accessTokenTtlSeconds: number,
  ) {}

  async issue(subject: TokenSubject, refreshToken?: string): Promise<IssuedTokens> {
    const now = this.clock.now();
    let refresh = refreshToken;
    if (!refresh) {
      refresh = randomBytes(32).toString('base64url');
      const bytes = refreshRecordBytes(refresh, subject);
      this.refreshTokens.set(refresh, {
        username: subject.username,
        alias: subject.alias,
        issuedAt: now,
        expiresAt: refreshTokenExpiry(now),
        bytes,
      });
      this.refreshBytes += bytes;
      // Each sign-in adds one: the oldest are forgotten beyond the caps (their refresh is then refused, and the
      // spec's answer to that is a new sign-in). The newest is always kept.
      while (
        this.refreshTokens.size > 1 &&
        (this.refreshTokens.size > MAX_REFRESH_TOKENS || this.refreshBytes > MAX_REFRESH_TOKEN_BYTES)
      ) {
        const [oldest, rec] = this.refreshTokens.entries().next().value!;
        this.refreshTokens.delete(oldest);
        this.refreshBytes -= rec.bytes;
      }
    }
    const iat = Math.floor(now / 1000);
    const extra = this.imitate;
    const jwt = new SignJWT({ ...placeholderValues(extra?.claims ?? {}, iat), alias: subject.alias })
      .setProtectedHeader({
        ...placeholderValues(Object.fromEntries((extra?.header ?? []).map((h) => [h, 'string'])), iat),
        alg: 'HS256',
        typ: 'JWT',
      })
      .setSubject(subject.username)
      .setIssuer(this.issuer)
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.accessTokenTtlSeconds)
      .setJti(randomUUID());
    return {
      access_token: await jwt.sign(this.secret),
      refresh_token: refresh,
      expires_in: this.accessTokenTtlSeconds,
    };
  }

  /** The refresh token's owner, or why it is refused. Reuse is allowed until it lapses (spec: Authentication 3). */
  redeem(refreshToken: string): { ok: true; subject: TokenSubject } | { ok: false; reason: 'unknown' | 'expired' } {
    const rec = this.refreshTokens.get(refreshToken);
    if (!rec) return { ok: false, reason: 'unknown' };
    if (this.clock.now() >= rec.expiresAt) return { ok: false, reason: 'expired' };
    return { ok: true, subject: { username: rec.username, alias: rec.alias } };
  }

  async checkAuthorization(header: string | undefined): Promise<AccessCheck> {
    if (header === undefined || header.trim() === '') return { ok: false, reason: 'missing' };
    const m = /^Bearer ([A-Za-z0-9_.-]+)$/.exec(header.trim());
    if (!m) return { ok: false, reason: 'malformed' };
    try {
      const { payload } = await jwtVerify(m[1], this.secret, {
        algorithms: ['HS256'],
        issuer: this.issuer,
        requiredClaims: ['exp', 'sub'],
        currentDate: new Date(this.clock.now()),
      });
      return {
        ok: true,
        subject: {
          username: String(payload.sub),
          alias: typeof payload.alias === 'string' ? payload.alias : undefined,
        },
      };
    } catch (err) {
      return { ok: false, reason: (err as { code?: string }).code === 'ERR_JWT_EXPIRED' ? 'expired' : 'invalid' };
    }
  }

  reset(): void {
    this.refreshTokens.clear();
    this.refreshBytes = 0;
  }
}

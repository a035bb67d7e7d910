// The probe's row logic: each row judged from an observation, the sandbox column compared by shape, and the
// names-only rule (a JWT's values never leave observe.ts).
import assert from 'node:assert/strict';
import { SignJWT } from 'jose';
import { judgeRow } from '../../../src/core/probe/judgeRow';
import { jwtNames, observe, parseWwwAuthenticate } from '../../../src/core/probe/observe';
import type { Observation } from '../../../src/core/probe/probeTypes';

const ctx = { problemsBase: 'https://svc.example/problems' };
const problem = (status: number, type: string, extra: Partial<Observation> = {}): Observation => ({
  status,
  contentType: 'application/problem+json',
  bodyKind: 'problem',
  fields: { detail: 'string', instance: 'string', status: 'number', title: 'string', type: 'string' },
  problemType: type,
  ...extra,
});

describe('probe rows', () => {
  it('start with a malformed token: as the spec says under {problems_base}; differs under another base or without error=invalid_token', () => {
    const www = { scheme: 'Bearer', params: ['error', 'realm'], error: 'invalid_token' };
    const ok = judgeRow(
      'start-bad-token',
      problem(401, 'https://svc.example/problems/invalid-token', { wwwAuthenticate: www }),
      ctx,
    );
    assert.deepEqual([ok.verdict, ok.verdictText], ['as-spec', 'as the spec says']);
    const elsewhere = judgeRow(
      'start-bad-token',
      problem(401, 'https://other.example/problems/invalid-token', { wwwAuthenticate: www }),
      ctx,
    );
    assert.equal(elsewhere.verdict, 'differs');
    assert.match(
      elsewhere.verdictText,
      /^differs from the spec: the problem type https:\/\/other\.example\/problems\/invalid-token is not under \{problems_base\}/,
    );
    // A base that only starts with the same characters is not "under" it.
    assert.equal(
      judgeRow(
        'start-bad-token',
        problem(401, 'https://svc.example/problems-x/invalid-token', { wwwAuthenticate: www }),
        ctx,
      ).verdict,
      'differs',
    );
    const noError = judgeRow(
      'start-bad-token',
      problem(401, 'https://svc.example/problems/invalid-token', {
        wwwAuthenticate: { scheme: 'Bearer', params: ['realm'] },
      }),
      ctx,
    );
    assert.match(noError.verdictText, /no error=invalid_token/);
  });

  it('start with no Authorization: about:blank and a realm, else differs; a 2xx is never as the spec says', () => {
    const www = { scheme: 'Bearer', params: ['realm'] };
    assert.equal(
      judgeRow('start-no-auth', problem(401, 'about:blank', { wwwAuthenticate: www }), ctx).verdict,
      'as-spec',
    );
    assert.match(
      judgeRow('start-no-auth', problem(401, 'https://svc.example/problems/x', { wwwAuthenticate: www }), ctx)
        .verdictText,
      /not about:blank/,
    );
    assert.equal(
      judgeRow('start-no-auth', { status: 202, contentType: 'application/json', bodyKind: 'json' }, ctx).verdict,
      'differs',
    );
  });

  it('an unresolvable product: 400 VALIDATION_ERROR or 404 not-found are both the spec; a 403 is not', () => {
    const messages: Observation = {
      status: 400,
      contentType: 'application/json',
      bodyKind: 'messages',
      messageCodes: ['VALIDATION_ERROR'],
    };
    assert.equal(judgeRow('start-unresolvable', messages, ctx).verdict, 'as-spec');
    assert.equal(
      judgeRow('start-unresolvable', problem(404, 'https://svc.example/problems/not-found'), ctx).verdict,
      'as-spec',
    );
    assert.equal(
      judgeRow('start-unresolvable', { status: 403, contentType: '', bodyKind: 'empty' }, ctx).verdict,
      'differs',
    );
    assert.equal(
      judgeRow('start-unresolvable', { ...messages, messageCodes: ['SESSION_EMPTY'] }, ctx).verdict,
      'differs',
    );
  });

  it('a refresh that rotates the refresh token differs from the spec', () => {
    const o: Observation = {
      status: 200,
      contentType: 'application/json',
      bodyKind: 'json',
      fields: { access_token: 'string', expires_in: 'number', refresh_token: 'string' },
      facts: { expiresIn: 3600, expiresInInteger: true, refreshTokenRotated: false },
    };
    assert.equal(judgeRow('refresh', o, ctx).verdict, 'as-spec');
    const rotated = judgeRow('refresh', { ...o, facts: { ...o.facts, refreshTokenRotated: true } }, ctx);
    assert.equal(rotated.verdict, 'differs');
    assert.match(rotated.verdictText, /a new refresh token came back/);
    assert.match(
      judgeRow('refresh', { ...o, fields: { access_token: 'string' } }, ctx).verdictText,
      /expires_in, refresh_token missing/,
    );
  });

  it('silent rows name both choices, and say when the service chose what the sandbox does', () => {
    const same = judgeRow('sign-in-refusal', problem(401, 'https://svc.example/problems/invalid-credentials'), ctx);
    assert.deepEqual([same.verdict, same.matchesSandbox], ['silent', true]);
    assert.match(same.verdictText, /, as the sandbox does$/);
    const other = judgeRow(
      'sign-in-refusal',
      {
        status: 400,
        contentType: 'application/json',
        bodyKind: 'json',
        fields: { error: 'string' },
        errorCode: 'invalid_grant',
      },
      ctx,
    );
    assert.deepEqual([other.verdict, other.matchesSandbox], ['silent', false]);
    assert.equal(
      other.verdictText,
      'the spec is silent: the service chose 400 · application/json · json · error invalid_grant · fields error, the sandbox 401 application/problem+json problem, type {problems_base}/invalid-credentials',
    );
    // A refusal that is accepted is not a choice the spec leaves open.
    assert.equal(
      judgeRow('sign-in-refusal', { status: 200, contentType: 'application/json', bodyKind: 'json' }, ctx).verdict,
      'differs',
    );
  });

  it("the webhook's JWT: the spec's claims, RS256 and a published kid; its other claims and lifetime are the service's choice", () => {
    const jwt = {
      header: ['alg', 'kid', 'typ'],
      claims: {
        aud: 'string',
        body_sha256: 'string',
        exp: 'number',
        iat: 'number',
        iss: 'string',
        jti: 'string',
      } as const,
      lifetimeSeconds: 300,
      alg: 'RS256',
    };
    const o: Observation = {
      status: 0,
      contentType: 'application/json',
      bodyKind: 'other',
      jwt: { ...jwt, claims: { ...jwt.claims } },
      facts: { bodyShaMatches: true, kidPublished: true },
    };
    assert.equal(judgeRow('webhook-jwt', o, { ...ctx, publishedKids: ['k'] }).verdict, 'as-spec');
    assert.deepEqual(
      [judgeRow('webhook-jwt-extra', o, ctx).verdict, judgeRow('webhook-jwt-extra', o, ctx).matchesSandbox],
      ['silent', true],
    );
    const { body_sha256: _dropped, ...withoutSha } = jwt.claims;
    const bad = judgeRow(
      'webhook-jwt',
      { ...o, jwt: { ...jwt, claims: withoutSha, alg: 'HS256' }, facts: { kidPublished: false } },
      { ...ctx, publishedKids: ['k'] },
    );
    assert.equal(
      bad.verdictText,
      'differs from the spec: claims body_sha256 missing; alg HS256, not RS256; its kid is not in the key set read',
    );
    assert.equal(
      judgeRow('webhook-jwt-extra', { ...o, jwt: { ...o.jwt!, lifetimeSeconds: 600 } }, ctx).matchesSandbox,
      false,
    );
  });

  it('a key set of non-RSA keys, or keys without kid, differs', () => {
    const o: Observation = {
      status: 200,
      contentType: 'application/json',
      bodyKind: 'json',
      fields: { keys: 'array' },
      facts: { keysWithoutKid: 0, keyTypes: ['RSA'], algorithms: ['RS256'] },
    };
    assert.equal(judgeRow('key-set', o, ctx).verdict, 'as-spec');
    assert.match(
      judgeRow('key-set', { ...o, facts: { keysWithoutKid: 1, keyTypes: ['EC'], algorithms: ['ES256'] } }, ctx)
        .verdictText,
      /1 key\(s\) without a kid; key types EC: RS256 needs RSA keys; algorithms ES256: RS256 is pinned/,
    );
  });

  it('observations keep names, never values: a JWT gives its header and claim names and lifetime only', async () => {
    const secret = new TextEncoder().encode('k'.repeat(32));
    const token = await new SignJWT({ email: 'ada@example.com', tid: 42 })
      .setProtectedHeader({ alg: 'HS256', kid: 'key-1' })
      .setIssuedAt(1000)
      .setExpirationTime(4600)
      .setSubject('user-123')
      .sign(secret);
    const names = jwtNames(token)!;
    assert.deepEqual(names, {
      header: ['alg', 'kid'],
      claims: { email: 'string', exp: 'number', iat: 'number', sub: 'string', tid: 'number' },
      lifetimeSeconds: 3600,
      alg: 'HS256',
    });
    assert.ok(
      !JSON.stringify(names).includes('ada@') &&
        !JSON.stringify(names).includes('user-123') &&
        !JSON.stringify(names).includes('key-1'),
    );
    const body = Buffer.from(
      JSON.stringify({ error: 'invalid_grant', error_description: 'User ada@example.com is locked' }),
    );
    const o = observe({ status: 400, contentType: 'application/json', body, headers: {} });
    assert.deepEqual(o, {
      status: 400,
      contentType: 'application/json',
      bodyKind: 'json',
      fields: { error: 'string', error_description: 'string' },
      errorCode: 'invalid_grant',
    });
    // A free-text "error" is not a code: it is not kept.
    assert.equal(
      observe({
        status: 400,
        contentType: 'application/json',
        body: Buffer.from('{"error":"User ada locked"}'),
        headers: {},
      }).errorCode,
      undefined,
    );
    assert.equal(
      observe({ status: 403, contentType: 'text/html', body: Buffer.from('<html></html>'), headers: {} }).bodyKind,
      'html',
    );
    assert.deepEqual(parseWwwAuthenticate('Bearer realm="x", error="invalid_token", error_description="exp"'), {
      scheme: 'Bearer',
      params: ['error', 'error_description', 'realm'],
      error: 'invalid_token',
    });
  });
});

// How the receiver audit makes its requests: genuine deliveries signed by the sandbox, and tokens forged each in one
// way (a foreign key, HS256 with the public key, malformed headers). The cases (auditCases.ts) say which to send.
import { SIGNED_HERE_CLAIM } from '../webhooks/signedHereClaim';
import { createHmac, createPublicKey, randomUUID, type KeyObject } from 'node:crypto';
import { SignJWT, type CryptoKey } from 'jose';
import { sha256Hex } from '../signing/webhookSigner';
import type { AuditIssuer, SandboxTrust } from '../sandbox/sandboxControlClient';

export interface AuditContext {
  /** The issuer that signs: a sandbox, or the test kit's issuer. */
  sandbox: AuditIssuer;
  trust: SandboxTrust;
  /** Seconds since the epoch, from the audit's clock. */
  nowS: () => number;
  /** A key of our own, never published by the sandbox. */
  foreign: { privateKey: CryptoKey; kid: string };
  /** A second loopback server that serves the foreign key (a key set at /.well-known/jwks.json, a PEM at /x5u.pem);
   * a receiver must never contact it. */
  decoy: { url: string; origin: string; requests: () => number };
  /** The foreign key's public JWK (for the jwk-header case). */
  foreignJwk?: Record<string, unknown>;
  /** The first (genuine) delivery, for the duplicate case. */
  genuine?: { body: Buffer; webhookId: string };
}

export interface ProbeRequest {
  headers: Record<string, string>;
  body: Buffer;
}

type SignAlg = 'RS256' | 'RS384' | 'RS512' | 'PS256';

export const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** An event-shaped body, compact JSON, with a fresh webhookId. */
export function probeBody(
  caseId: string,
  nowS: number,
  webhookId: string = randomUUID(),
): { body: Buffer; webhookId: string } {
  const triggeredAt = new Date(nowS * 1000).toISOString().replace(/\.(\d{3})Z$/, '.$10000Z');
  const event = {
    webhookId,
    topic: 'audit/probe',
    subTopic: 'audit:audit/probe',
    tenantId: 'audit',
    triggeredAt,
    actorId: 'act_audit',
    data: { case: caseId, note: 'audit' },
  };
  return { body: Buffer.from(JSON.stringify(event)), webhookId };
}

export function headers(webhookId: string, authorization?: string): Record<string, string> {
  const h: Record<string, string> = {
    'content-type': 'application/json',
    'x-svc-topic': 'audit/probe',
    'x-svc-webhook-id': webhookId,
  };
  if (authorization !== undefined) h.authorization = authorization;
  return h;
}

/** A sandbox-signed token over `body` with the audit clock's iat/exp, plus the case's changes. */
export async function sandboxToken(
  ctx: AuditContext,
  body: Buffer,
  claims: Record<string, unknown> = {},
  extra: { header?: Record<string, unknown>; alg?: SignAlg } = {},
): Promise<string> {
  const now = ctx.nowS();
  // The audit plays the service, duplicates included: its tokens never carry the mark of one signed on request.
  const unmarked = { [SIGNED_HERE_CLAIM]: null };
  return (await ctx.sandbox.sign(body, { claims: { iat: now, exp: now + 300, ...unmarked, ...claims }, ...extra }))
    .token;
}

/** The claims of a genuine delivery token for `body`, on the audit's clock (the forged cases sign these). */
export function genuineClaims(ctx: AuditContext, body: Buffer, iss = ctx.trust.issuer): Record<string, unknown> {
  const now = ctx.nowS();
  return { iss, aud: ctx.trust.audience, iat: now, exp: now + 300, jti: randomUUID(), body_sha256: sha256Hex(body) };
}

/** A token signed with our own foreign key (never in the sandbox's key set). */
export async function foreignToken(
  ctx: AuditContext,
  body: Buffer,
  o: { iss?: string; kid: string; header?: Record<string, unknown> },
): Promise<string> {
  return new SignJWT(genuineClaims(ctx, body, o.iss))
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...o.header, kid: o.kid })
    .sign(ctx.foreign.privateKey);
}

/** An HS256 token whose secret is the sandbox's public key in some encoding: what an algorithm-confused receiver
 * uses as the HMAC key. */
export async function hs256WithPublicKey(
  ctx: AuditContext,
  caseId: string,
  secret: (key: KeyObject, jwk: Record<string, unknown>) => string | Buffer,
): Promise<ProbeRequest> {
  const { body, webhookId } = probeBody(caseId, ctx.nowS());
  const { kid, key } = await sandboxPublicKey(ctx);
  const jwk = key.export({ format: 'jwk' }) as Record<string, unknown>;
  const input = `${b64url({ alg: 'HS256', typ: 'JWT', kid })}.${b64url(genuineClaims(ctx, body))}`;
  const sig = createHmac('sha256', secret(key, jwk)).update(input).digest('base64url');
  return { body, headers: headers(webhookId, `Bearer ${input}.${sig}`) };
}

/** A body and an Authorization header that is not a JWT at all. */
export function malformed(ctx: AuditContext, caseId: string, authorization: string): ProbeRequest {
  const { body, webhookId } = probeBody(caseId, ctx.nowS());
  return { body, headers: headers(webhookId, authorization) };
}

export const decoyRequests = async (ctx: AuditContext) => ctx.decoy.requests();

export async function sandboxPublicKey(ctx: AuditContext): Promise<{ kid: string; key: KeyObject }> {
  const { keys } = await ctx.sandbox.keySet();
  const jwk = keys[0]!;
  return { kid: jwk.kid as string, key: createPublicKey({ key: jwk as never, format: 'jwk' }) };
}

export async function simple(
  ctx: AuditContext,
  id: string,
  claims: Record<string, unknown>,
  extra: { header?: Record<string, unknown>; alg?: SignAlg } = {},
): Promise<ProbeRequest> {
  const { body, webhookId } = probeBody(id, ctx.nowS());
  return { body, headers: headers(webhookId, `Bearer ${await sandboxToken(ctx, body, claims, extra)}`) };
}

export const keySetRequests = (ctx: AuditContext) => ctx.sandbox.keySetRequests();

/** A genuine delivery of an event with this webhookId (the dedupe probes). */
export async function genuineDelivery(ctx: AuditContext, caseId: string, webhookId: string): Promise<ProbeRequest> {
  const { body } = probeBody(caseId, ctx.nowS(), webhookId);
  return { body, headers: headers(webhookId, `Bearer ${await sandboxToken(ctx, body)}`) };
}

/** The same event signed with a foreign key under the sandbox's kid: it must be refused, and leave no trace. */
export async function forgedDelivery(ctx: AuditContext, caseId: string, webhookId: string): Promise<ProbeRequest> {
  const { body } = probeBody(caseId, ctx.nowS(), webhookId);
  const { kid } = await sandboxPublicKey(ctx);
  return { body, headers: headers(webhookId, `Bearer ${await foreignToken(ctx, body, { kid })}`) };
}

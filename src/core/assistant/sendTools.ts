// The tools that send a signed delivery: replay a verified delivery or a fixture to the developer's app, and send a
// new event to the receiver or the app. Each body is signed over its exact bytes with the sandbox key, sent through
// the one sender (no redirects, the answer's first 4 KiB), and the answer comes back whole so the assistant can read
// an error, fix the handler and send again. Where it goes is the user's configuration (their forward target, their
// receiver), never a URL the model names.
import { forwardableHeaders } from '../http/hopByHop';
import { sendDelivery, type DeliveryAnswer } from '../http/sendDelivery';
import type { TlsProblem } from '../http/tlsFailure';
import {
  BODY_TRIGGERED_AT,
  BODY_WEBHOOK_ID,
  FRESH_WEBHOOK_ID,
  NOW,
  parseFixture,
  resolveFixture,
  type Fixture,
  type ResolvedFixture,
} from '../fixtures/fixtureFormat';
import type { DeliveryRecord } from '../webhooks/deliveryRecord';
import { answerBodyFields } from '../webhooks/forwardAnswer';
import { OUTSIDE_CONTENT_NOTE } from './outsideContent';
import type { AssistantContext } from './assistantContext';
import { ToolRefused, titled, type AssistantTool, type ToolPreview } from './assistantTool';
import { said } from '../presentation/said';
import { pickDelivery } from './deliveryTools';
import { appAcknowledged } from '../webhooks/replayAnswer';
import type { ReplayAnswer } from '../webhooks/replayLog';
import { replayWithFreshId } from '../fixtures/freshWebhookId';
import { checkAskable, personQuestion, quoted, type AskedValue } from './personQuestion';

interface AppAnswer {
  status: number | null;
  headers: Record<string, string>;
  /** The first 4 KiB of the body, as text when it is UTF-8 (else bodyBase64). */
  body?: string;
  bodyBase64?: string;
  /** Instead of bodyBase64: why a binary body is not shown (it held a credential this process sent or holds). */
  bodyWithheld?: string;
  bodyBytes: number;
  truncated: boolean;
  latencyMs: number;
  redirect?: string;
  /** No full answer: why. */
  error?: string;
  /** What was wrong with the app's certificate, when that was why (`error` names it, with the fix). */
  tls?: TlsProblem;
}

export interface SendResult {
  to: string;
  sent: { what: string; topic: string | null; webhookId: string | null; bodyBytes: number };
  /** Who signed it: the issuer and key set the receiving end must trust. */
  signedBy: { issuer: string; jwksUrl: string };
  answer: AppAnswer;
  /** What the answer suggests, when it is not a 2xx. */
  hint?: string;
  /** A replay under a webhookId the app already answered 2xx for: it may have been skipped as a duplicate. */
  note?: string;
}

/** `credentials`: the token sent and every secret the process holds; the body keeps none of them (answerBodyFields
 * takes them out before a binary body is base64-encoded, where no later redaction could see them). */
function answerOf(a: DeliveryAnswer, credentials: readonly string[]): AppAnswer {
  const out: AppAnswer = {
    status: a.status ?? null,
    headers: a.headers ?? {},
    bodyBytes: a.bodySize ?? 0,
    truncated: a.truncated === true,
    latencyMs: a.latencyMs,
  };
  if (a.body && a.body.length) Object.assign(out, answerBodyFields(a.body, a.truncated === true, credentials));
  if (a.redirect) out.redirect = a.redirect;
  if (a.error) out.error = a.error;
  if (a.tls) out.tls = a.tls;
  return out;
}

/** What a replay shows the person before it is sent: each value labelled and quoted, the webhookId (what an app
 * dedupes on) included when there is one. The run checks the same values, so a value that cannot be shown is never
 * sent unasked (a failed preview means no confirmation in VS Code). */
function replayValues(p: ReplayPlan): AskedValue[] {
  const what: AskedValue =
    p.fixtureFile !== undefined
      ? {
          label: said('What'),
          field: 'fixture',
          value: p.fixtureFile,
          shown: said('the fixture {0}', quoted(p.fixtureFile)),
        }
      : {
          label: said('What'),
          field: 'deliveryId',
          value: p.deliveryId ?? '',
          shown: said('delivery {0}', quoted(p.deliveryId ?? '')),
        };
  return [
    p.fresh ? { ...what, shown: said('{0} under a fresh webhookId', what.shown!) } : what,
    ...(p.topic ? [{ label: said('Topic'), field: 'topic', value: p.topic }] : []),
    ...(p.webhookId ? [{ label: 'webhookId', field: 'webhookId', value: p.webhookId }] : []),
    { label: said('To'), field: 'to', value: p.to },
  ];
}

/** The same for a new event: the values the model chose, and where it goes. */
function eventValues(input: SendEventInput, to: string): AskedValue[] {
  const optional = (label: string, field: keyof SendEventInput) => {
    const v = input[field];
    return typeof v === 'string' ? [{ label, field, value: v }] : [];
  };
  // The protocol's field names (subTopic, data…) are shown as they are; the rest are core's words.
  return [
    { label: said('Topic'), field: 'topic', value: input.topic },
    ...optional('subTopic', 'subTopic'),
    ...optional('tenantId', 'tenantId'),
    ...optional('actorId', 'actorId'),
    ...optional('webhookId', 'webhookId'),
    { label: 'data', field: 'data', value: JSON.stringify(input.data ?? {}).slice(0, 300) },
    {
      label: said('To'),
      field: 'to',
      value: to,
      shown: input.to === 'receiver' ? said('the receiver at {0}', quoted(to)) : said('your app at {0}', quoted(to)),
    },
  ];
}

/** What to do next, by what the answer shows. `again` says how to send the same thing once more: a replay or a
 * fixture is sent again by wfs_replay_to_app, a new event by wfs_send_event (it has no delivery to replay). */
function hintFor(
  a: AppAnswer,
  to: string,
  signedBy: { issuer: string; jwksUrl: string },
  again: string,
): string | undefined {
  if (a.status === null && a.tls) return `${a.error}.`;
  if (a.status === null)
    return `${to} did not answer (${a.error}): start your app (or the receiver), or check the address.`;
  if (a.status === 401 || a.status === 403)
    return `${to} refused the signature: make it trust the issuer ${signedBy.issuer} with the key set ${signedBy.jwksUrl} (wfs_environment shows them).`;
  if (a.status === 503 && a.headers['retry-after'] !== undefined)
    return `${to} could not consult its key set (503 with Retry-After, as the spec asks): the service would send it again later; ${again} once the key set answers.`;
  if (a.status >= 500) return `The handler failed: read the answer body for its error, fix the handler, then ${again}.`;
  if (a.status >= 300 && a.status < 400)
    return `${to} answered a redirect${a.redirect ? ` to ${a.redirect}` : ''}, which is never followed: send to the final address.`;
  if (a.status >= 400) return 'The app refused the delivery: its answer body says why.';
  return undefined;
}

async function signAndSend(
  ctx: AssistantContext,
  to: string,
  body: Buffer,
  headers: Record<string, string>,
  sent: SendResult['sent'],
  again: string,
  signal?: AbortSignal,
): Promise<SendResult> {
  ctx.checkSending();
  ctx.checkReach(to);
  // The forward rule's `ca` or `insecure` for this target, as the receiver's forwarding uses them.
  const { tls, caRemedy } = ctx.targetTls(to);
  const signer = await ctx.signer();
  const { token, done } = await ctx.signFor(to, body);
  let a;
  try {
    a = await sendDelivery({
      url: to,
      body,
      headers: { ...headers, authorization: `Bearer ${token}` },
      signal,
      caRemedy,
      ...(tls ? { tls } : {}),
    });
  } finally {
    done();
  }
  const signedBy = { issuer: signer.issuer, jwksUrl: signer.jwksUrl };
  const answer = answerOf(a, [token, `Bearer ${token}`, ...ctx.secrets()]);
  const hint = hintFor(answer, to, signedBy, again);
  return { to, sent, signedBy, answer, ...(hint ? { hint } : {}) };
}

/** The recorded body of a verified delivery, whole. */
async function replayableBody(ctx: AssistantContext, r: DeliveryRecord): Promise<Buffer> {
  if (!r.verified)
    throw new ToolRefused(
      `Delivery ${r.id} was refused, so it is not re-signed: that would make a body nobody trusted verify. Explain it with wfs_explain_refusal, or send a new event with wfs_send_event.`,
    );
  const body = await ctx.deliveries.body(r.id);
  if (!body || body.length < r.body.size)
    throw new ToolRefused(
      `The body of delivery ${r.id} is no longer held whole (the history dropped it to keep its size): replay a newer delivery, or a fixture.`,
    );
  return body;
}

async function loadFixture(ctx: AssistantContext, path: string): Promise<{ file: string; fixture: Fixture }> {
  const { file, text } = await ctx.readFixture(path);
  const parsed = parseFixture(text);
  if (!parsed.ok)
    throw new ToolRefused(
      `${file} is not a valid fixture: ${parsed.problems
        .slice(0, 5)
        .map((p) => `${p.field || 'the file'} (line ${p.start.line + 1}): ${p.message}`)
        .join('; ')}. Fix the file and replay it again.`,
    );
  return { file, fixture: parsed.fixture };
}

export interface ReplayInput {
  deliveryId?: string;
  fixture?: string;
  topic?: string;
  /** Send it under a new webhookId (the body changes there only, and is signed anew), so an app that dedupes runs
   * its handler again. */
  freshWebhookId?: boolean;
}

interface ReplayPlan {
  to: string;
  /** The delivery replayed; absent for a fixture. */
  deliveryId?: string;
  /** The fixture replayed (its path); absent for a delivery. */
  fixtureFile?: string;
  /** Sent under a fresh webhookId. */
  fresh?: true;
  /** What is replayed, in English for the model (results, refusals); whatShown says it to a person. */
  what: string;
  topic: string | null;
  webhookId: string | null;
  body: Buffer;
  headers: Record<string, string>;
}

async function planReplay(input: ReplayInput, ctx: AssistantContext): Promise<ReplayPlan> {
  const plan = await planSameReplay(input, ctx);
  if (!input.freshWebhookId) return plan;
  const fresh = replayWithFreshId(plan.body, plan.headers);
  if (!fresh)
    throw new ToolRefused(
      `${plan.what} has no webhookId in its body to make fresh: replay it as it is (without freshWebhookId).`,
    );
  return {
    ...plan,
    what: `${plan.what} under a fresh webhookId`,
    fresh: true,
    webhookId: fresh.webhookId,
    body: fresh.body,
    headers: fresh.headers,
  };
}

async function planSameReplay(input: ReplayInput, ctx: AssistantContext): Promise<ReplayPlan> {
  if (input.deliveryId !== undefined && input.fixture !== undefined)
    throw new ToolRefused('Give deliveryId or fixture, not both: one delivery is replayed at a time.');
  if (input.fixture !== undefined) {
    const { file, fixture } = await loadFixture(ctx, input.fixture);
    const resolved: ResolvedFixture = resolveFixture(fixture, ctx.clock.now());
    return {
      to: ctx.appTarget({ topic: fixture.topic, subTopic: fixture.subTopic }),
      fixtureFile: file,
      what: `the fixture ${file}`,
      topic: fixture.topic,
      webhookId: resolved.webhookId,
      body: resolved.body,
      headers: resolved.headers,
    };
  }
  const r = await pickDelivery(
    ctx,
    input.deliveryId,
    (d) => d.verified && (input.topic === undefined || d.topic === input.topic),
    input.topic ? `verified delivery of ${input.topic}` : 'verified delivery',
  );
  const body = await replayableBody(ctx, r);
  const headers = forwardableHeaders(r.headers);
  delete headers.authorization;
  return {
    to: ctx.appTarget({ topic: r.topic, subTopic: r.subTopic }),
    deliveryId: r.id,
    what: `delivery ${r.id}`,
    topic: r.topic ?? null,
    webhookId: r.webhookId ?? null,
    body,
    headers,
  };
}

export const replayToApp: AssistantTool<ReplayInput, SendResult> = {
  name: 'wfs_replay_to_app',
  ...titled(said('Replay a delivery to your app')),
  summary: 'Send a verified delivery or a fixture to your app again, re-signed, and read its answer.',
  description: [
    "Sends a verified delivery again (or a fixture file, NAME.webhook.json) to the developer's app, their forward",
    'target, re-signed with the sandbox key over the exact same body bytes. Returns what the app answered: its status,',
    'headers and the first 4 KiB of its body, so an error in the handler can be read, fixed, and the same delivery',
    'replayed until it answers 2xx. Without deliveryId or fixture: the newest verified delivery (of the topic, when',
    'given). Refused deliveries are never re-signed. The app must trust the sandbox issuer (wfs_environment names it).',
    OUTSIDE_CONTENT_NOTE,
  ].join(' '),
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      deliveryId: {
        type: 'string',
        minLength: 1,
        maxLength: 200,
        description: 'The verified delivery to replay (an id from wfs_list_deliveries).',
      },
      fixture: {
        type: 'string',
        minLength: 1,
        maxLength: 1000,
        description:
          'Instead of a delivery: the path of a fixture file (*.webhook.json) inside the workspace, absolute or relative to it.',
      },
      topic: {
        type: 'string',
        maxLength: 200,
        description: 'Without deliveryId or fixture: replay the newest verified delivery of this exact topic.',
      },
      freshWebhookId: {
        type: 'boolean',
        description:
          'Send it under a new webhookId (only that value of the body changes; it is signed anew), so an app that dedupes on webhookId runs its handler again. Default: the same webhookId.',
      },
    },
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  effect: 'sends',
  async preview(input, ctx): Promise<ToolPreview> {
    const p = await planReplay(input, ctx);
    // Free of side effects (VS Code's rule for a preview): the signer is not asked, so the sandbox is not started.
    return {
      title: said('Replay a webhook delivery to your app'),
      message: personQuestion(
        said("Send this delivery again ({0} bytes) as a POST, re-signed with the sandbox's key?", p.body.length),
        replayValues(p),
      ),
    };
  },
  async run(input, ctx, signal) {
    const p = await planReplay(input, ctx);
    checkAskable(replayValues(p));
    const acknowledged =
      !input.freshWebhookId &&
      p.webhookId !== null &&
      appAcknowledged(await ctx.deliveries.records(), p.webhookId, ctx.deliveries.replays());
    const result = await signAndSend(
      ctx,
      p.to,
      p.body,
      p.headers,
      { what: p.what, topic: p.topic, webhookId: p.webhookId, bodyBytes: p.body.length },
      'send the same delivery again with wfs_replay_to_app',
      signal,
    );
    ctx.deliveries.replayed(replayAnswerOf(p, result, ctx.clock.now()));
    if (!acknowledged) return result;
    return {
      ...result,
      note: `Your app already answered 2xx for webhookId ${JSON.stringify(p.webhookId)}: an app that dedupes on webhookId, as the spec asks, may have treated this replay as a duplicate and skipped its handler. To run the handler again, replay with freshWebhookId: true.`,
    };
  },
};

/** What the app answered to a replay, as the replay log keeps it: a 2xx under a webhookId makes the next replay under
 * it a possible duplicate. */
function replayAnswerOf(p: ReplayPlan, result: SendResult, now: number): ReplayAnswer {
  const { status, error } = result.answer;
  return {
    at: new Date(now).toISOString(),
    target: p.to,
    ...(p.webhookId === null ? {} : { webhookId: p.webhookId }),
    ...(p.deliveryId === undefined ? {} : { deliveryId: p.deliveryId }),
    ...(status === null ? {} : { status }),
    ...(error === undefined ? {} : { error }),
  };
}

export interface SendEventInput {
  to: 'receiver' | 'app';
  topic: string;
  subTopic?: string;
  tenantId?: string;
  actorId?: string;
  data?: Record<string, unknown>;
  webhookId?: string;
}

function eventFixture(input: SendEventInput): Fixture {
  const subTopic = input.subTopic ?? `status:${input.topic}`;
  const tenant = input.tenantId ?? 'tenant-dev';
  const body = {
    webhookId: input.webhookId ?? BODY_WEBHOOK_ID,
    topic: input.topic,
    subTopic,
    tenantId: tenant,
    triggeredAt: BODY_TRIGGERED_AT,
    actorId: input.actorId ?? 'act_assistant',
    data: input.data ?? {},
  };
  return {
    topic: input.topic,
    subTopic,
    tenant,
    webhookId: input.webhookId ?? FRESH_WEBHOOK_ID,
    triggeredAt: NOW,
    headers: {},
    contentType: 'application/json',
    bodyText: JSON.stringify(body, null, 2),
    bodyIsJson: true,
    expect: {},
  };
}

function eventTarget(input: SendEventInput, ctx: AssistantContext): string {
  return input.to === 'receiver' ? ctx.receiverUrl() : ctx.appTarget({ topic: input.topic, subTopic: input.subTopic });
}

export const sendEvent: AssistantTool<SendEventInput, SendResult> = {
  name: 'wfs_send_event',
  ...titled(said('Send a signed webhook event')),
  summary: 'Sign a new event and send it to your receiver or your app, and read the answer.',
  description: [
    'Builds a webhook event as the service sends it (webhookId, topic, subTopic, tenantId, triggeredAt with 7',
    'fractional digits, actorId, data), signs its exact bytes with the sandbox key, and sends it to the local',
    "receiver (to see it verified step by step) or to the developer's app (their forward target). Returns the answer:",
    'status, headers and the first 4 KiB of the body. A fresh webhookId and triggeredAt are made unless given.',
    OUTSIDE_CONTENT_NOTE,
  ].join(' '),
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['to', 'topic'],
    properties: {
      to: {
        type: 'string',
        enum: ['receiver', 'app'],
        description: "receiver: the local webhook receiver; app: the developer's app (their forward target).",
      },
      topic: {
        type: 'string',
        pattern: '^[^/\\s]+/[^/\\s]+$',
        maxLength: 200,
        description: 'The event topic, <group>/<name>, e.g. "workflow/completed".',
      },
      subTopic: {
        type: 'string',
        maxLength: 200,
        description: 'The subtype, <kind>:<group>/<name> (default "status:<topic>").',
      },
      tenantId: { type: 'string', maxLength: 200, description: 'The tenant (default "tenant-dev").' },
      actorId: { type: 'string', maxLength: 200, description: 'The actor id (default "act_assistant").' },
      data: { type: 'object', description: 'The event payload, e.g. {"workflowId": "wf_…", "runId": "wfrun_…"}.' },
      webhookId: {
        type: 'string',
        maxLength: 200,
        description: 'A fixed webhookId (to test duplicate handling); default: a fresh UUID.',
      },
    },
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  effect: 'sends',
  async preview(input, ctx) {
    const to = eventTarget(input, ctx);
    return {
      title: said('Send a signed {0} event', input.topic),
      message: personQuestion(
        said("Send a new event as a POST, signed with the sandbox's key?"),
        eventValues(input, to),
      ),
    };
  },
  async run(input, ctx, signal) {
    const to = eventTarget(input, ctx);
    checkAskable(eventValues(input, to));
    const resolved = resolveFixture(eventFixture(input), ctx.clock.now());
    return signAndSend(
      ctx,
      to,
      resolved.body,
      resolved.headers,
      {
        what: `a new ${input.topic} event`,
        topic: input.topic,
        webhookId: resolved.webhookId,
        bodyBytes: resolved.body.length,
      },
      // A new event has no delivery to replay: it is sent again as it was made.
      'send the event again with wfs_send_event',
      signal,
    );
  },
};

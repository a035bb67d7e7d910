// The tools that read the receiver's deliveries: list them, read one whole, explain a refusal step by step, and wait
// for the next one. They read only; nothing here sends.
import type { DeliveryRecord } from '../webhooks/deliveryRecord';
import { parseUtcTimestamp } from '../time/timestamps';
import { OUTSIDE_CONTENT_NOTE } from './outsideContent';
import type { AssistantContext } from './assistantContext';
import { READS, ToolRefused, titled, type AssistantTool } from './assistantTool';
import { said } from '../presentation/said';
import {
  deliveryDetail,
  deliveryRow,
  filterDeliveries,
  parseSince,
  topicMatcher,
  type DeliveryDetail,
  type DeliveryRow,
} from './deliveryViews';
import { explainRefusal, type RefusalExplanation } from './refusalExplanation';

const MAX_LISTED = 100;
const DEFAULT_LISTED = 20;
const MAX_WAIT_SECONDS = 300;

const topicProperty = {
  type: 'string',
  maxLength: 200,
  description:
    'The event topic, e.g. "workflow/completed"; * matches within one /-separated part, ** across them, ? one character other than / ("workflow/*").',
};

export interface ListInput {
  topic?: string;
  verified?: boolean;
  status?: number;
  since?: string;
  text?: string;
  limit?: number;
}

export interface ListResult {
  /** Where the deliveries were read. */
  source: string;
  /** How many the receiver holds, and how many pass the filter. */
  held: number;
  matching: number;
  /** Newest first, at most `limit`. */
  deliveries: DeliveryRow[];
}

export const listDeliveries: AssistantTool<ListInput, ListResult> = {
  name: 'wfs_list_deliveries',
  ...titled(said('List webhook deliveries')),
  summary: 'List the deliveries your receiver got, filtered by topic, verified or refused, status, time or text.',
  description: [
    "Lists the webhook deliveries the local receiver got, newest first: each one's id, topic, whether it was verified or",
    "refused (and at which of the seven verification steps), the status the receiver answered, and what the developer's",
    'app answered when the delivery was forwarded to it. Filter by topic, verified, status, since and text. Use it to',
    'find a delivery, then wfs_get_delivery for its body and headers or wfs_explain_refusal for why it was refused.',
    OUTSIDE_CONTENT_NOTE,
  ].join(' '),
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      topic: topicProperty,
      verified: { type: 'boolean', description: 'true: only verified deliveries; false: only refused ones.' },
      status: {
        type: 'integer',
        minimum: 100,
        maximum: 599,
        description: 'Only deliveries the receiver answered with this HTTP status (200, 403, 503…).',
      },
      since: {
        type: 'string',
        maxLength: 40,
        description: 'Only deliveries received since then: "15m", "2h", "1d", or an ISO 8601 time.',
      },
      text: {
        type: 'string',
        maxLength: 200,
        description:
          "Case-insensitive text to look for in ids, topics, runId, webhookId, a failed step's detail and the app's answer.",
      },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_LISTED,
        default: DEFAULT_LISTED,
        description: `How many to return (default ${DEFAULT_LISTED}, at most ${MAX_LISTED}).`,
      },
    },
  },
  annotations: READS,
  effect: 'reads',
  async run(input, ctx) {
    const sinceMs = input.since === undefined ? undefined : parseSince(input.since, ctx.clock.now());
    if (input.since !== undefined && sinceMs === undefined)
      throw new ToolRefused(
        `since "${input.since}" is neither a duration ("15m", "2h", "1d") nor an ISO 8601 time: give one of those.`,
      );
    const records = await ctx.deliveries.records();
    const { total, matching } = filterDeliveries(
      records,
      { topic: input.topic, verified: input.verified, status: input.status, sinceMs, text: input.text },
      input.limit ?? DEFAULT_LISTED,
    );
    return {
      source: ctx.deliveries.description,
      held: records.length,
      matching: total,
      deliveries: matching.map(deliveryRow),
    };
  },
};

/** The newest record that passes `ok`, or the one with this id; a ToolRefused saying what to do when there is none. */
export async function pickDelivery(
  ctx: AssistantContext,
  id: string | undefined,
  ok: (r: DeliveryRecord) => boolean,
  what: string,
): Promise<DeliveryRecord> {
  const records = await ctx.deliveries.records();
  if (id !== undefined) {
    for (let i = records.length - 1; i >= 0; i--) if (records[i]!.id === id) return records[i]!;
    throw new ToolRefused(
      `No delivery has the id ${JSON.stringify(id)} in ${ctx.deliveries.description} (it may have been cleared, or dropped to keep the history's size): list them with wfs_list_deliveries.`,
    );
  }
  for (let i = records.length - 1; i >= 0; i--) if (ok(records[i]!)) return records[i]!;
  throw new ToolRefused(
    `There is no ${what} in ${ctx.deliveries.description}${records.length ? ` (it holds ${records.length})` : ' (it is empty)'}: send one (wfs_send_event), or wait for one (wfs_wait_for_delivery).`,
  );
}

const idProperty = {
  type: 'string',
  minLength: 1,
  maxLength: 200,
  description: 'The delivery id, as wfs_list_deliveries gives it. Leave it out for the newest one.',
};

export interface GetInput {
  id?: string;
  topic?: string;
}

export const getDelivery: AssistantTool<GetInput, DeliveryDetail> = {
  name: 'wfs_get_delivery',
  ...titled(said('Read one webhook delivery')),
  summary: "Read one delivery: body, headers, the seven verification steps and your app's answer.",
  description: [
    'Returns one delivery whole: its body (text, and parsed JSON when it is JSON; the first 16 KiB), the request',
    "headers as recorded (the token itself is never kept: only its scheme and length), the token's decoded header and",
    "claims, the seven verification steps with what each found, the receiver's answer, what the developer's app",
    'answered (status, headers, the first 4 KiB of its body), and the runId that ties it to a workflow.',
    'Without an id: the newest delivery (of the topic, when given).',
    OUTSIDE_CONTENT_NOTE,
  ].join(' '),
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    properties: { id: idProperty, topic: topicProperty },
  },
  annotations: READS,
  effect: 'reads',
  async run(input, ctx) {
    const topicOk = input.topic === undefined ? () => true : topicMatcher(input.topic);
    const r = await pickDelivery(
      ctx,
      input.id,
      (d) => topicOk(d.topic ?? d.unsigned?.topic),
      input.topic ? `delivery of ${input.topic}` : 'delivery',
    );
    return deliveryDetail(r, await ctx.deliveries.body(r.id));
  },
};

export const explainDelivery: AssistantTool<{ id?: string }, RefusalExplanation> = {
  name: 'wfs_explain_refusal',
  ...titled(said('Explain why a delivery was refused')),
  summary: "Explain a delivery's verification step by step, with causes and fixes for the step that failed.",
  description: [
    "Explains a delivery's verification step by step: what each of the spec's seven steps checks, what it found, and",
    'for the step that failed, its likely causes and what to do (the setting, flag or tool that fixes it). For a',
    "verified delivery it says so, and whether the developer's app failed on it. Without an id: the newest refused one.",
    OUTSIDE_CONTENT_NOTE,
  ].join(' '),
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    properties: { id: { ...idProperty, description: 'The delivery id. Leave it out for the newest refused one.' } },
  },
  annotations: READS,
  effect: 'reads',
  async run(input, ctx) {
    return explainRefusal(await pickDelivery(ctx, input.id, (r) => !r.verified, 'refused delivery'));
  },
};

export interface WaitInput {
  topic?: string;
  verified?: boolean;
  since?: string;
  timeoutSeconds?: number;
}

export type WaitResult =
  { arrived: true; waitedMs: number; delivery: DeliveryRow } | { arrived: false; waitedMs: number; message: string };

export const waitForDelivery: AssistantTool<WaitInput, WaitResult> = {
  name: 'wfs_wait_for_delivery',
  ...titled(said('Wait for the next webhook delivery')),
  summary: 'Wait for the next delivery of a topic to reach your receiver.',
  description: [
    'Waits until a new delivery (of the topic, when given) reaches the receiver, or the timeout passes, and returns it',
    'as wfs_list_deliveries would. Deliveries that arrived before the call do not count, unless `since` names an',
    'earlier time: then the first one received since then. Use it after starting a sandbox workflow or sending a test',
    'webhook, to see the event arrive.',
    OUTSIDE_CONTENT_NOTE,
  ].join(' '),
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      topic: topicProperty,
      verified: { type: 'boolean', description: 'true: wait for a verified one; false: for a refused one.' },
      since: {
        type: 'string',
        maxLength: 40,
        description:
          'Count deliveries received since then ("2m", or an ISO 8601 time), e.g. the time a workflow was started.',
      },
      timeoutSeconds: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_WAIT_SECONDS,
        default: 60,
        description: `How long to wait, in seconds (default 60, at most ${MAX_WAIT_SECONDS}).`,
      },
    },
  },
  annotations: READS,
  effect: 'reads',
  async run(input, ctx, signal) {
    const started = ctx.clock.now();
    const sinceMs = input.since === undefined ? undefined : parseSince(input.since, started);
    if (input.since !== undefined && sinceMs === undefined)
      throw new ToolRefused(
        `since "${input.since}" is neither a duration ("2m", "1h") nor an ISO 8601 time: give one of those.`,
      );
    // Without `since`, what is there now does not count; with it, what arrived since then does.
    const seen = sinceMs === undefined ? new Set((await ctx.deliveries.records()).map((r) => r.id)) : new Set<string>();
    const topicOk = input.topic === undefined ? () => true : topicMatcher(input.topic);
    const fits = (r: DeliveryRecord) =>
      !seen.has(r.id) &&
      (sinceMs === undefined || (parseUtcTimestamp(r.receivedAt) ?? 0) >= sinceMs) &&
      topicOk(r.topic ?? r.unsigned?.topic) &&
      (input.verified === undefined || r.verified === input.verified);
    const timeoutMs = (input.timeoutSeconds ?? 60) * 1000;
    let timer: ReturnType<typeof ctx.clock.setTimeout> | undefined;
    let off: (() => void) | undefined;
    let onAbort: (() => void) | undefined;
    try {
      const found = await new Promise<DeliveryRecord | undefined>((resolve, reject) => {
        let checking = false;
        let again = false;
        const check = async () => {
          if (checking) return void (again = true);
          checking = true;
          try {
            do {
              again = false;
              const next = (await ctx.deliveries.records()).find(fits);
              if (next) return resolve(next);
            } while (again);
          } catch (err) {
            reject(err as Error);
          } finally {
            checking = false;
          }
        };
        off = ctx.deliveries.onChange(() => void check());
        timer = ctx.clock.setTimeout(() => resolve(undefined), timeoutMs);
        onAbort = () => reject(new ToolRefused('The wait was cancelled.'));
        signal?.addEventListener('abort', onAbort, { once: true });
        void check();
      });
      const waitedMs = ctx.clock.now() - started;
      if (found) return { arrived: true, waitedMs, delivery: deliveryRow(found) };
      return {
        arrived: false,
        waitedMs,
        message: `No ${input.topic ? `delivery of ${input.topic}` : 'delivery'} arrived within ${timeoutMs / 1000} s at ${ctx.deliveries.description}.`,
      };
    } finally {
      ctx.clock.clearTimeout(timer);
      off?.();
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
  },
};

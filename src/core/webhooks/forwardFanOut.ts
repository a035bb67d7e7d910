// Fan-out of a verified delivery to the apps its forward rules name: in parallel, each target once (two rules naming
// one URL send once), each with its own timeout, through the one sender (sendDelivery: exact bytes, no redirects,
// the answer's first 4 KiB). What each app answered is recorded as text for the panel, the CLI and exports.
import type { Dispatcher } from 'undici';
import { forwardableHeaders } from '../http/hopByHop';
import { DEFAULT_DELIVERY_TIMEOUT_MS, sendDelivery, type DeliveryAnswer } from '../http/sendDelivery';
import { targetDispatcher, type TargetTls } from '../http/targetTls';
import type { CaRemedy } from '../http/tlsFailure';
import type { ForwardAnswerRecord } from './deliveryRecord';
import { answerBodyFields, sentCredentials } from './forwardAnswer';
import { ruleMatches, type ForwardRule } from './forwardRules';

export interface ForwarderOptions {
  rules: readonly ForwardRule[];
  /** Each target's timeout unless its rule sets one (default 10 s). */
  timeoutMs?: number;
  /** Answer the service with the apps' status (the highest; 502/504 when one did not answer) instead of 200. */
  passThrough?: boolean;
  dispatcher?: Dispatcher;
}

interface Target {
  url: string;
  rules: string[];
  headers: Record<string, string>;
  timeoutMs: number;
  /** The first rule's `ca` or `insecure` for this URL. */
  tls?: TargetTls;
  /** The first rule's words for where a root is given. */
  caRemedy?: CaRemedy;
}

export class Forwarder {
  /** One dispatcher per target with its own TLS (by URL), made at its first delivery; closed by close(). */
  private readonly tlsDispatchers = new Map<string, Promise<Dispatcher | undefined>>();

  constructor(readonly options: ForwarderOptions) {}

  get passThrough(): boolean {
    return this.options.passThrough === true;
  }

  /** The targets the rules give a delivery with these signed fields, one per URL, in rule order. */
  targets(signed: { topic?: string; subTopic?: string }): Target[] {
    const byUrl = new Map<string, Target>();
    for (const rule of this.options.rules) {
      if (!ruleMatches(rule, signed)) continue;
      const key = new URL(rule.url).href;
      const seen = byUrl.get(key);
      if (seen) {
        seen.rules.push(rule.name);
        // The first rule's value of a header (and its ca or insecure) wins; the longest timeout, so no rule's target
        // is cut sooner than asked.
        for (const [k, v] of Object.entries(rule.headers)) seen.headers[k] ??= v;
        if (rule.timeoutMs !== undefined) seen.timeoutMs = Math.max(seen.timeoutMs, rule.timeoutMs);
        continue;
      }
      byUrl.set(key, {
        url: rule.url,
        rules: [rule.name],
        headers: { ...rule.headers },
        timeoutMs: rule.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS,
        ...(rule.tls ? { tls: rule.tls } : {}),
        ...(rule.caRemedy ? { caRemedy: rule.caRemedy } : {}),
      });
    }
    return [...byUrl.values()];
  }

  /** Sends the delivery to every target its signed fields match; undefined when no rule takes it. */
  send(
    signed: { topic?: string; subTopic?: string },
    requestHeaders: Record<string, string | string[] | undefined>,
    raw: Buffer,
  ): Promise<ForwardAnswerRecord[]> | undefined {
    const targets = this.targets(signed);
    if (targets.length === 0) return undefined;
    const passed = forwardableHeaders(requestHeaders);
    return Promise.all(
      targets.map((t) => {
        const headers = { ...passed, ...t.headers };
        const send = (dispatcher: Dispatcher | undefined) =>
          sendDelivery({
            url: t.url,
            body: raw,
            headers,
            timeoutMs: t.timeoutMs,
            dispatcher,
            caRemedy: t.caRemedy ?? 'rule',
            ...(t.tls?.caFile !== undefined ? { caFile: t.tls.caFile } : {}),
          }).then((a) => answerRecord(a, t.rules, sentCredentials(headers), t.tls?.insecure));
        return t.tls ? this.tlsDispatcher(t).then(send) : send(this.options.dispatcher);
      }),
    );
  }

  /** A target's own TLS connections, made once per target and kept until close(). */
  private async tlsDispatcher(t: Target): Promise<Dispatcher | undefined> {
    const key = new URL(t.url).href;
    let d = this.tlsDispatchers.get(key);
    if (!d) {
      d = targetDispatcher(t.tls);
      this.tlsDispatchers.set(key, d);
    }
    return (await d) ?? this.options.dispatcher;
  }

  /** Closes the targets' own connections (the receiver stopped). */
  async close(): Promise<void> {
    const open = [...this.tlsDispatchers.values()];
    this.tlsDispatchers.clear();
    await Promise.all(open.map(async (d) => (await d)?.destroy().catch(() => undefined)));
  }

  /** What the service is answered once the targets did: 200, or with pass-through the apps' own status. */
  answerStatus(forwards: readonly ForwardAnswerRecord[]): number {
    return this.passThrough ? passThroughStatus(forwards) : 200;
  }
}

/** The status that tells the service what the apps did: a target that did not answer makes it 504 (timed out) or
 * 502; otherwise the highest status answered, so a 5xx from any app has the service send the delivery again. */
export function passThroughStatus(forwards: readonly ForwardAnswerRecord[]): number {
  let status = 0;
  for (const f of forwards) {
    if (f.status === undefined) return f.failure === 'timeout' ? 504 : 502;
    status = Math.max(status, f.status);
  }
  return status || 200;
}

/** `credentials`: what was sent to the app as a credential; an answer that echoes one keeps none of it. */
function answerRecord(
  a: DeliveryAnswer,
  rules: string[],
  credentials: readonly string[],
  insecure: true | undefined,
): ForwardAnswerRecord {
  const out: ForwardAnswerRecord = { target: a.target, rules, latencyMs: a.latencyMs };
  if (insecure) out.insecure = true;
  if (a.status !== undefined) out.status = a.status;
  if (a.headers) out.headers = a.headers;
  if (a.body && a.body.length > 0) Object.assign(out, answerBodyFields(a.body, a.truncated === true, credentials));
  if (a.bodySize !== undefined) out.bodySize = a.bodySize;
  if (a.truncated) out.truncated = true;
  if (a.redirect !== undefined) out.redirect = a.redirect;
  if (a.failure) out.failure = a.failure;
  if (a.error) out.error = a.error;
  if (a.errorSaid) out.errorSaid = a.errorSaid;
  if (a.tls) out.tls = a.tls;
  return out;
}

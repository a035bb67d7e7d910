// Delivers signed webhooks and resends with exponential backoff when a receiver answers >= 500 or cannot be
// reached (spec: Events 3; the schedule is not shown: ours is documented in README).
import { randomUUID } from 'node:crypto';
import type { Clock, TimerHandle } from '../time/clock';
import { httpRequest } from '../http/request';
import type { SignOptions, WebhookSigner } from '../signing/webhookSigner';
import { TypedEmitter } from '../events/TypedEmitter';
import { faultMarkHeader, SANDBOX_FAULT_HEADER, type SandboxFaultMark } from '../webhooks/sandboxFaultMark';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Delay before the second attempt; doubles each time. */
  baseDelayMs: number;
  /** Ceiling for one delay. */
  maxDelayMs: number;
  /** How long one attempt may take. */
  timeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 6, baseDelayMs: 1000, maxDelayMs: 60_000, timeoutMs: 10_000 };

/** A type literal, not an interface: `wfs sandbox` prints it as a JSON line (a Record of its fields). */
export type DeliveryAttempt = {
  deliveryId: string;
  webhookId: string;
  topic?: string;
  address: string;
  attempt: number;
  at: number;
  status?: number;
  error?: string;
  /** When the next attempt is due; absent when none follows. */
  nextAttemptAt?: number;
  /** Why no retry follows an attempt that failed, when the bound on bodies awaiting retry refused it. */
  retryRefused?: string;
  /** What a delivery fault did to it: the X-Wfs-Sandbox-Fault header it carried. */
  fault?: string;
};

/** Bodies held for a retry (up to 1 MiB each, the sandbox runs in the extension host): past this, a failed
 * attempt is not retried. */
export const MAX_RETRY_BYTES = 64 * 1024 * 1024;
/** An attempt's record keeps at most this much of its address (a test webhook's may be as long as its body). */
const RECORD_ADDRESS_CHARS = 2048;

export interface OutgoingWebhook {
  address: string;
  body: Buffer;
  webhookId: string;
  topic?: string;
  /** Extra headers sent with the delivery (the X-Svc-* values of a test webhook). */
  headers?: Record<string, string>;
  /** Extra claims, header parameters or lifetime of its token (a sandbox profile's test webhook). */
  sign?: Pick<SignOptions, 'claims' | 'header' | 'ttlSeconds'>;
  /** A token already made for these bytes, sent by the first attempt (a duplicate that keeps its original's); a
   * retry signs anew, as the service does. */
  token?: string;
  /** What a delivery fault did to it, sent as the X-Wfs-Sandbox-Fault header (outside the body and the token). */
  faultMark?: SandboxFaultMark;
  /** A retry storm: the retry schedule divided by this factor, each retry marked with its number. */
  retryFactor?: number;
}

export interface DispatcherEvents {
  /** Every attempt, once its answer (or failure) is known. */
  attempt: [DeliveryAttempt];
}

export class WebhookDispatcher extends TypedEmitter<DispatcherEvents> {
  readonly attempts: DeliveryAttempt[] = [];
  private readonly timers = new Set<TimerHandle>();
  private stopped = false;
  /** Bytes of the bodies whose retry is scheduled. */
  private retryBytes = 0;

  constructor(
    private readonly clock: Clock,
    private readonly signer: WebhookSigner,
    readonly retry: RetryPolicy = DEFAULT_RETRY,
    private readonly maxRetryBytes = MAX_RETRY_BYTES,
  ) {
    super();
  }

  /** Sends the first attempt and resolves with its result; later attempts follow on the clock. */
  async deliver(hook: OutgoingWebhook): Promise<DeliveryAttempt> {
    return this.attempt(hook, randomUUID(), 1);
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) this.clock.clearTimeout(t);
    this.timers.clear();
    this.retryBytes = 0;
  }

  private async attempt(hook: OutgoingWebhook, deliveryId: string, n: number): Promise<DeliveryAttempt> {
    const address =
      hook.address.length > RECORD_ADDRESS_CHARS ? `${hook.address.slice(0, RECORD_ADDRESS_CHARS)}…` : hook.address;
    const record: DeliveryAttempt = {
      deliveryId,
      webhookId: hook.webhookId,
      topic: hook.topic,
      address,
      attempt: n,
      at: this.clock.now(),
    };
    const mark = this.markOf(hook, n);
    if (mark !== undefined) record.fault = mark;
    try {
      const token = n === 1 && hook.token !== undefined ? hook.token : await this.signer.sign(hook.body, hook.sign);
      const res = await httpRequest({
        method: 'POST',
        url: hook.address,
        headers: {
          ...hook.headers,
          ...(mark === undefined ? {} : { [SANDBOX_FAULT_HEADER]: mark }),
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'user-agent': 'WorkflowService-Webhooks/sandbox',
        },
        body: hook.body,
        timeoutMs: this.retry.timeoutMs,
        maxResponseBytes: 64 * 1024,
      });
      record.status = res.status;
    } catch (err) {
      record.error = (err as Error).message;
    }
    const retryable = record.error !== undefined || (record.status !== undefined && record.status >= 500);
    if (retryable && n < this.retry.maxAttempts && !this.stopped) {
      if (this.retryBytes + hook.body.length > this.maxRetryBytes) {
        record.retryRefused = `not retried: the sandbox holds at most ${this.maxRetryBytes / 1024 / 1024} MiB of deliveries awaiting a retry`;
      } else {
        const delay = this.retryDelay(hook, n);
        record.nextAttemptAt = this.clock.now() + delay;
        this.retryBytes += hook.body.length;
        const handle = this.clock.setTimeout(() => {
          this.timers.delete(handle);
          this.retryBytes -= hook.body.length;
          void this.attempt(hook, deliveryId, n + 1);
        }, delay);
        this.timers.add(handle);
      }
    }
    this.keep(record);
    return record;
  }

  /** The wait before attempt n + 1: doubling from the base up to its ceiling, compressed in a retry storm. */
  private retryDelay(hook: OutgoingWebhook, n: number): number {
    const delay = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (n - 1));
    return hook.retryFactor ? Math.max(1, Math.round(delay / hook.retryFactor)) : delay;
  }

  /** The fault header of attempt n: the first carries the planned mark; a storm's retries say which retry. */
  private markOf(hook: OutgoingWebhook, n: number): string | undefined {
    if (n === 1) return hook.faultMark && faultMarkHeader(hook.faultMark);
    if (!hook.retryFactor) return undefined;
    const { duplicateOf, freshToken, burst } = hook.faultMark ?? {};
    const retry = { attempt: n - 1, of: this.retry.maxAttempts - 1 };
    return faultMarkHeader({ duplicateOf, freshToken, burst, retry });
  }

  private keep(record: DeliveryAttempt): void {
    this.attempts.push(record);
    if (this.attempts.length > 1000) this.attempts.splice(0, this.attempts.length - 1000);
    this.emit('attempt', record);
  }
}

// Mistakes the audit cannot see from outside, for the scorecard's "Check in your code" section. Two of them can be
// probed when the receiver tells how many deliveries it processed (an optional URL the user gives).
import { randomUUID } from 'node:crypto';
import { httpRequest } from '../http/request';

export interface CodeCheck {
  id: 'constant-time-hash' | 'duplicates-processed-twice' | 'dedupe-poisoning';
  title: string;
  /** What to look for in the receiver's code. */
  lookFor: string;
  /** Set when the processed-count URL let the audit probe it. */
  probe?: { passed: boolean; detail: string };
}

export const CODE_CHECKS: readonly Omit<CodeCheck, 'probe'>[] = [
  {
    id: 'constant-time-hash',
    title: 'The body hash is compared in constant time',
    lookFor:
      'Compare body_sha256 with the digest using crypto.timingSafeEqual on the two 32-byte buffers, not === on hex strings: a byte-by-byte comparison leaks, through timing, how much of a forged hash was right. Network noise hides it from an audit; only the code shows it.',
  },
  {
    id: 'duplicates-processed-twice',
    title: 'A duplicate is answered 200 without being processed again',
    lookFor:
      'Before processing, look the webhookId up in the ids already processed; if it is there, answer 200 and do nothing else. An answer of 200 says nothing about whether the event ran twice (two loan updates, two emails).',
  },
  {
    id: 'dedupe-poisoning',
    title: 'The webhookId is recorded only after verification and processing',
    lookFor:
      "Add the webhookId to the processed set after every check passed and the event was processed. Recorded earlier, a forged delivery carrying a genuine event's id makes the genuine one look like a duplicate: it is answered 200 and never processed.",
  },
];

/** Reads the receiver's processed count: a bare number, or JSON {"processed": N}. */
export async function readProcessedCount(url: string, timeoutMs: number): Promise<number> {
  const res = await httpRequest({ method: 'GET', url, timeoutMs, maxResponseBytes: 4096 });
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  const text = res.body.toString('utf8').trim();
  let value: unknown = Number(text);
  if (!Number.isFinite(value)) {
    try {
      const o = JSON.parse(text) as { processed?: unknown };
      value = typeof o === 'number' ? o : o?.processed;
    } catch {
      value = undefined;
    }
  }
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new Error(`${url} did not answer a count (a number, or {"processed": N})`);
  return value;
}

export interface ProbeDeps {
  processedUrl: string;
  timeoutMs: number;
  /** Sends a genuine delivery whose event carries this webhookId; resolves with the HTTP status. */
  sendGenuine(webhookId: string): Promise<number>;
  /** Sends a forged delivery (a foreign key) whose event carries this webhookId; resolves with the HTTP status. */
  sendForged(webhookId: string): Promise<number>;
}

/** The two probes that a processed count makes possible. */
export async function probeWithProcessedCount(
  d: ProbeDeps,
): Promise<Partial<Record<CodeCheck['id'], { passed: boolean; detail: string }>>> {
  const count = () => readProcessedCount(d.processedUrl, d.timeoutMs);
  // Duplicates: the same genuine event twice is processed once.
  const y = randomUUID();
  const c0 = await count();
  const s1 = await d.sendGenuine(y);
  const s2 = await d.sendGenuine(y);
  const c1 = await count();
  const dup =
    c1 - c0 === 1 && s1 === 200 && s2 === 200
      ? { passed: true, detail: 'the same event twice: both answered 200, processed once' }
      : {
          passed: false,
          detail: `the same event twice: answered ${s1} then ${s2}, and the processed count went from ${c0} to ${c1} (expected +1)`,
        };
  // Poisoning: a forged delivery with id X, then the genuine X, which must still be processed.
  const x = randomUUID();
  const sf = await d.sendForged(x);
  const c2 = await count();
  const sg = await d.sendGenuine(x);
  const c3 = await count();
  const poison =
    sf === 403 && sg === 200 && c3 - c2 === 1 && c2 === c1
      ? {
          passed: true,
          detail: "a forged delivery with a genuine event's id was refused, and the genuine one was then processed",
        }
      : {
          passed: false,
          detail: `a forged delivery with webhookId X answered ${sf}; the genuine X then answered ${sg} and the processed count went from ${c2} to ${c3} (expected +1): ${c3 === c2 ? 'the forged delivery poisoned the dedupe set, so the genuine event was never processed' : 'see the counts'}`,
        };
  return { 'duplicates-processed-twice': dup, 'dedupe-poisoning': poison };
}

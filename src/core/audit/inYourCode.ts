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
  const dup = duplicateVerdict(s1, s2, c0, c1);
  // Poisoning: a forged delivery with id X, then the genuine X, which must still be processed.
  const x = randomUUID();
  const sf = await d.sendForged(x);
  const c2 = await count();
  const sg = await d.sendGenuine(x);
  const c3 = await count();
  const poison = poisoningVerdict({ sf, sg, before: c1, afterForged: c2, afterGenuine: c3 });
  return { 'duplicates-processed-twice': dup, 'dedupe-poisoning': poison };
}

type Verdict = { passed: boolean; detail: string };
const is2xx = (s: number) => s >= 200 && s < 300;
const plus = (n: number) => (n >= 0 ? `+${n}` : String(n));

/** The same genuine event sent twice: the fault named first is the one that matters most. */
function duplicateVerdict(s1: number, s2: number, c0: number, c1: number): Verdict {
  const counts = `(processed count ${c0} → ${c1})`;
  if (s1 !== 200)
    return {
      passed: false,
      detail: `a genuine delivery was answered ${s1}, not 200, so duplicates could not be probed: fix the genuine case first ${counts}`,
    };
  if (s2 !== 200)
    return {
      passed: false,
      detail: `the same event delivered again was answered ${s2}: a duplicate must be answered 200 (anything else makes the service send it again) ${counts}`,
    };
  if (c1 - c0 >= 2)
    return {
      passed: false,
      detail: `the same event delivered twice was processed ${c1 - c0} times: both answered 200, and the duplicate ran again ${counts}`,
    };
  if (c1 - c0 <= 0)
    return {
      passed: false,
      detail: `a genuine delivery answered 200 but the processed count did not move ${counts}: is --processed-url this receiver's count of processed deliveries?`,
    };
  return { passed: true, detail: 'the same event twice: both answered 200, processed once' };
}

/** A forged delivery carrying webhookId X, then the genuine X: the forged one must be refused and leave no trace. */
function poisoningVerdict(o: {
  sf: number;
  sg: number;
  before: number;
  afterForged: number;
  afterGenuine: number;
}): Verdict {
  const { sf, sg, before, afterForged, afterGenuine } = o;
  const counts = `(processed count ${before} → ${afterForged} after the forged delivery, → ${afterGenuine} after the genuine one)`;
  if (is2xx(sf))
    return {
      passed: false,
      detail: `a forged delivery (signed with a key the issuer never published) was answered ${sf}: the receiver accepted it${afterForged > before ? ' and processed it' : ''}; it must refuse it with 403 ${counts}`,
    };
  if (afterForged !== before)
    return {
      passed: false,
      detail: `a forged delivery was answered ${sf} but the processed count moved by ${plus(afterForged - before)}: it was processed before it was refused ${counts}`,
    };
  if (sf !== 403)
    return {
      passed: false,
      detail: `a forged delivery was answered ${sf}; a refusal must be 403${sf >= 500 ? ' (a 5xx makes the service send it again)' : ''} ${counts}`,
    };
  if (sg !== 200)
    return {
      passed: false,
      detail: `after a refused forged delivery with its webhookId, the genuine event was answered ${sg}, not 200 ${counts}`,
    };
  if (afterGenuine === afterForged)
    return {
      passed: false,
      detail: `the forged delivery poisoned the dedupe set: it was refused, but its webhookId was kept, so the genuine event with that id was answered 200 as a duplicate and never processed ${counts}`,
    };
  if (afterGenuine - afterForged !== 1)
    return {
      passed: false,
      detail: `the genuine event was processed ${afterGenuine - afterForged} times after one delivery ${counts}`,
    };
  return {
    passed: true,
    detail: "a forged delivery with a genuine event's id was refused, and the genuine one was then processed",
  };
}

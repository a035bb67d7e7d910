// Mistakes the audit cannot see from outside, for the scorecard's "Check in your code" section. Two of them can be
// probed when the receiver tells how many deliveries it processed (an optional URL the user gives).
import { randomUUID } from 'node:crypto';
import { httpRequest } from '../http/request';
import { english, said, SaidError, type Said } from '../presentation/said';

/** A probe's verdict: its detail in English, and as a Said for a face that words it (absent in older records). */
export interface ProbeVerdict {
  passed: boolean;
  detail: string;
  said?: Said;
}

export interface CodeCheck {
  id: 'constant-time-hash' | 'duplicates-processed-twice' | 'dedupe-poisoning';
  title: string;
  /** What to look for in the receiver's code. */
  lookFor: string;
  /** The title and what to look for, for a face that words them; the string fields are their English. */
  said?: { title: Said; lookFor: Said };
  /** Set when the processed-count URL let the audit probe it. */
  probe?: ProbeVerdict;
}

/** A verdict from its words. */
export function probeVerdict(passed: boolean, detail: Said): ProbeVerdict {
  return { passed, detail: english(detail), said: detail };
}

type CheckSpec = { id: CodeCheck['id']; title: Said; lookFor: Said };

const CHECKS: readonly CheckSpec[] = [
  {
    id: 'constant-time-hash',
    title: said('The body hash is compared in constant time'),
    lookFor: said(
      'Compare body_sha256 with the digest using crypto.timingSafeEqual on the two 32-byte buffers, not === on hex strings: a byte-by-byte comparison leaks, through timing, how much of a forged hash was right. Network noise hides it from an audit; only the code shows it.',
    ),
  },
  {
    id: 'duplicates-processed-twice',
    title: said('A duplicate is answered 200 without being processed again'),
    lookFor: said(
      'Before processing, look the webhookId up in the ids already processed; if it is there, answer 200 and do nothing else. An answer of 200 says nothing about whether the event ran twice (two loan updates, two emails).',
    ),
  },
  {
    id: 'dedupe-poisoning',
    title: said('The webhookId is recorded only after verification and processing'),
    lookFor: said(
      "Add the webhookId to the processed set after every check passed and the event was processed. Recorded earlier, a forged delivery carrying a genuine event's id makes the genuine one look like a duplicate: it is answered 200 and never processed.",
    ),
  },
];

/** The checks, their English beside their words. */
export const CODE_CHECKS: readonly Omit<CodeCheck, 'probe'>[] = CHECKS.map((c) => ({
  id: c.id,
  title: english(c.title),
  lookFor: english(c.lookFor),
  said: { title: c.title, lookFor: c.lookFor },
}));

/** Reads the receiver's processed count: a bare number, or JSON {"processed": N}. */
export async function readProcessedCount(url: string, timeoutMs: number): Promise<number> {
  const res = await httpRequest({ method: 'GET', url, timeoutMs, maxResponseBytes: 4096 });
  if (res.status !== 200) throw new SaidError(said('{0} answered {1}', url, res.status));
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
    throw new SaidError(said('{0} did not answer a count (a number, or {"processed": N})', url));
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
export async function probeWithProcessedCount(d: ProbeDeps): Promise<Partial<Record<CodeCheck['id'], ProbeVerdict>>> {
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

const is2xx = (s: number) => s >= 200 && s < 300;
const plus = (n: number) => (n >= 0 ? `+${n}` : String(n));

/** The same genuine event sent twice: the fault named first is the one that matters most. */
function duplicateVerdict(s1: number, s2: number, c0: number, c1: number): ProbeVerdict {
  const counts = said('(processed count {0} → {1})', c0, c1);
  if (s1 !== 200)
    return probeVerdict(
      false,
      said(
        'a genuine delivery was answered {0}, not 200, so duplicates could not be probed: fix the genuine case first {1}',
        s1,
        counts,
      ),
    );
  if (s2 !== 200)
    return probeVerdict(
      false,
      said(
        'the same event delivered again was answered {0}: a duplicate must be answered 200 (anything else makes the service send it again) {1}',
        s2,
        counts,
      ),
    );
  if (c1 - c0 >= 2)
    return probeVerdict(
      false,
      said(
        'the same event delivered twice was processed {0} times: both answered 200, and the duplicate ran again {1}',
        c1 - c0,
        counts,
      ),
    );
  if (c1 - c0 <= 0)
    return probeVerdict(
      false,
      said(
        "a genuine delivery answered 200 but the processed count did not move {0}: is --processed-url this receiver's count of processed deliveries?",
        counts,
      ),
    );
  return probeVerdict(true, said('the same event twice: both answered 200, processed once'));
}

/** A forged delivery carrying webhookId X, then the genuine X: the forged one must be refused and leave no trace. */
function poisoningVerdict(o: {
  sf: number;
  sg: number;
  before: number;
  afterForged: number;
  afterGenuine: number;
}): ProbeVerdict {
  const { sf, sg, before, afterForged, afterGenuine } = o;
  const counts = said(
    '(processed count {0} → {1} after the forged delivery, → {2} after the genuine one)',
    before,
    afterForged,
    afterGenuine,
  );
  const failed = (s: Said) => probeVerdict(false, s);
  if (is2xx(sf))
    return failed(
      afterForged > before
        ? said(
            'a forged delivery (signed with a key the issuer never published) was answered {0}: the receiver accepted it and processed it; it must refuse it with 403 {1}',
            sf,
            counts,
          )
        : said(
            'a forged delivery (signed with a key the issuer never published) was answered {0}: the receiver accepted it; it must refuse it with 403 {1}',
            sf,
            counts,
          ),
    );
  if (afterForged !== before)
    return failed(
      said(
        'a forged delivery was answered {0} but the processed count moved by {1}: it was processed before it was refused {2}',
        sf,
        plus(afterForged - before),
        counts,
      ),
    );
  if (sf !== 403)
    return failed(
      sf >= 500
        ? said(
            'a forged delivery was answered {0}; a refusal must be 403 (a 5xx makes the service send it again) {1}',
            sf,
            counts,
          )
        : said('a forged delivery was answered {0}; a refusal must be 403 {1}', sf, counts),
    );
  if (sg !== 200)
    return failed(
      said(
        'after a refused forged delivery with its webhookId, the genuine event was answered {0}, not 200 {1}',
        sg,
        counts,
      ),
    );
  if (afterGenuine === afterForged)
    return failed(
      said(
        'the forged delivery poisoned the dedupe set: it was refused, but its webhookId was kept, so the genuine event with that id was answered 200 as a duplicate and never processed {0}',
        counts,
      ),
    );
  if (afterGenuine - afterForged !== 1)
    return failed(
      said('the genuine event was processed {0} times after one delivery {1}', afterGenuine - afterForged, counts),
    );
  return probeVerdict(
    true,
    said("a forged delivery with a genuine event's id was refused, and the genuine one was then processed"),
  );
}

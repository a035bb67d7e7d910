// What the sandbox did to a delivery when a delivery fault is set (a duplicate, a reordering, a delay, a retry of a
// storm, a burst), said in one header beside the signed request, never in the body or the token: the receiver
// records it and shows it as the sandbox's note. It is outside the signature, so it is only ever shown, labelled as
// unverified, and never decides dedupe, forwarding or an answer.

import { english, said, type Said } from '../presentation/said';

export const SANDBOX_FAULT_HEADER = 'x-wfs-sandbox-fault';

export interface SandboxFaultMark {
  /** The webhookId this delivery repeats (a copy of an event already sent, same body). */
  duplicateOf?: string;
  /** The copy carries a token of its own, not the original's. */
  freshToken?: true;
  /** The event left its place in its workflow's order. */
  reordered?: true;
  /** Held back this long before it was sent. */
  delayedMs?: number;
  /** An attempt of a retry storm: the service's schedule, compressed. */
  retry?: { attempt: number; of: number };
  /** One of several copies sent at the same moment. */
  burst?: { n: number; of: number };
}

/** A header value is bounded: a mark is a few words. */
const MAX_HEADER_CHARS = 512;
const ID = /^[\w.:-]{1,100}$/;
const COUNT = /^(\d{1,4})\/(\d{1,4})$/;

/** The header's value for a mark, its parts in a fixed order separated by "; ". */
export function faultMarkHeader(mark: SandboxFaultMark): string | undefined {
  const parts: string[] = [];
  // An id from a body (a test webhook's testData) may hold anything: only a plain one goes into a header.
  if (mark.duplicateOf !== undefined)
    parts.push(`duplicate-of=${ID.test(mark.duplicateOf) ? mark.duplicateOf : 'unnamed'}`);
  if (mark.freshToken) parts.push('fresh-token');
  if (mark.reordered) parts.push('reordered');
  if (mark.delayedMs !== undefined) parts.push(`delayed-ms=${mark.delayedMs}`);
  if (mark.retry) parts.push(`retry=${mark.retry.attempt}/${mark.retry.of}`);
  if (mark.burst) parts.push(`burst=${mark.burst.n}/${mark.burst.of}`);
  return parts.length ? parts.join('; ') : undefined;
}

/** The mark a header value states, or undefined when it states none. Parts it does not know are left out (a later
 * sandbox may say more); a value past its bound is not read. */
export function parseFaultMark(value: string | undefined): SandboxFaultMark | undefined {
  if (value === undefined || value.length > MAX_HEADER_CHARS) return undefined;
  const mark: SandboxFaultMark = {};
  for (const part of value.split(';')) readPart(mark, part.trim());
  return Object.keys(mark).length ? mark : undefined;
}

function readPart(mark: SandboxFaultMark, part: string): void {
  const eq = part.indexOf('=');
  const key = eq < 0 ? part : part.slice(0, eq);
  const value = eq < 0 ? '' : part.slice(eq + 1);
  if (key === 'duplicate-of' && ID.test(value)) mark.duplicateOf = value;
  else if (key === 'fresh-token' && eq < 0) mark.freshToken = true;
  else if (key === 'reordered' && eq < 0) mark.reordered = true;
  else if (key === 'delayed-ms' && /^\d{1,7}$/.test(value)) mark.delayedMs = Number(value);
  else if (key === 'retry' || key === 'burst') {
    const m = COUNT.exec(value);
    if (!m) return;
    const [a, b] = [Number(m[1]), Number(m[2])];
    if (key === 'retry') mark.retry = { attempt: a, of: b };
    else mark.burst = { n: a, of: b };
  }
}

/** The mark in words, e.g. "duplicate of 5edd…, reordered, delayed 2.1 s": each part a message of its own, so the
 * extension words it in the user's language (the id and the numbers are values). An empty mark says nothing. */
export function faultMarkSaid(mark: SandboxFaultMark): Said | undefined {
  const parts: Said[] = [];
  if (mark.duplicateOf !== undefined)
    parts.push(
      mark.freshToken
        ? said('duplicate of {0} (fresh token)', mark.duplicateOf)
        : said('duplicate of {0} (same token)', mark.duplicateOf),
    );
  if (mark.reordered) parts.push(said('reordered'));
  if (mark.delayedMs !== undefined) parts.push(said('delayed {0} s', (mark.delayedMs / 1000).toFixed(1)));
  if (mark.retry) parts.push(said('retry {0} of {1}', mark.retry.attempt, mark.retry.of));
  if (mark.burst) parts.push(said('burst {0} of {1}', mark.burst.n, mark.burst.of));
  return saidList(parts);
}

/** The parts one after the other, "a, b, c" (a translator may choose another separator); none: undefined. */
function saidList(parts: readonly Said[]): Said | undefined {
  return parts.slice(1).reduce<Said | undefined>((list, part) => said('{0}, {1}', list!, part), parts[0]);
}

/** The mark in English, as the CLI, the test kit and `wfs listen --json` show it. */
export function faultMarkText(mark: SandboxFaultMark): string {
  const s = faultMarkSaid(mark);
  return s ? english(s) : '';
}

// Every start carries a distinctive correlationId so a 500 can be resolved (spec: Errors, rule 4).
import { randomBytes } from 'node:crypto';
import { checkOutgoingValue } from '../http/edgeFilter';
import { LocalValidationError } from '../http/serviceErrors';
import { said } from '../presentation/said';

export const MAX_CORRELATION_ID = 255;

/** e.g. wfs-20260115T120000Z-9f3a61c2: sortable by time, unique by 32 random bits. */
export function generateCorrelationId(nowMs: number): string {
  const stamp = new Date(nowMs)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `wfs-${stamp}-${randomBytes(4).toString('hex')}`;
}

export function checkCorrelationId(value: string): void {
  if (value.length > MAX_CORRELATION_ID)
    throw new LocalValidationError(
      'correlationId-length',
      said('correlationId is {0} characters; the service accepts at most {1}.', value.length, MAX_CORRELATION_ID),
      {
        correlationId: value.slice(0, 40) + '…',
      },
    );
  if (value.length === 0)
    throw new LocalValidationError(
      'correlationId-empty',
      said('correlationId is empty; leave it out to have one generated.'),
    );
  checkOutgoingValue('correlationId', value);
}

/**
 * The form a correlationId probably had, when the one typed carries what copying adds: surrounding whitespace, or the
 * quotes of the JSON line it was copied from (`"wfs-…"`, with a trailing comma). Undefined when nothing is to strip.
 * A search that finds nothing by the typed form also tries this one: after an unknown outcome, "none found" is the
 * answer that leads to a second billed start, so it must not come from a stray quote.
 */
export function copiedCorrelationId(typed: string): string | undefined {
  let v = typed.trim().replace(/,$/, '').trim();
  const m = /^(["'`])(.*)\1$/s.exec(v);
  if (m) v = m[2]!;
  return v !== typed && v.length > 0 ? v : undefined;
}

/** What a search by correlationId found, and under which form: the typed one, or the form copying had changed. */
export interface CorrelationSearch<T> {
  found: T[];
  /** The correlationId the found workflows carry (the typed one when nothing was found). */
  searched: string;
  /** The cleaned form, when the typed one carried what copying adds. */
  copied?: string;
}

/** Searches by the typed correlationId, then, when that finds nothing, by its copied-clean form (copiedCorrelationId).
 * */
export async function findByCorrelationId<T>(
  find: (correlationId: string) => Promise<T[]>,
  typed: string,
): Promise<CorrelationSearch<T>> {
  const asTyped = await find(typed);
  const copied = copiedCorrelationId(typed);
  if (asTyped.length > 0 || copied === undefined) return { found: asTyped, searched: typed, copied };
  const underCopied = await find(copied);
  return underCopied.length > 0
    ? { found: underCopied, searched: copied, copied }
    : { found: [], searched: typed, copied };
}

// Every start carries a distinctive correlationId so a 500 can be resolved (spec: Errors, rule 4).
import { randomBytes } from 'node:crypto';
import { edgeViolation } from '../http/edgeFilter';
import { LocalValidationError } from '../http/serviceErrors';

export const MAX_CORRELATION_ID = 255;

/** e.g. wfs-20260115T120000Z-9f3a61c2: sortable by time, unique by 32 random bits. */
export function generateCorrelationId(nowMs: number): string {
  const stamp = new Date(nowMs).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return `wfs-${stamp}-${randomBytes(4).toString('hex')}`;
}

/** Refuses, before sending, a value the service or its edge would refuse, naming the rule. */
export function checkOutgoingValue(field: string, value: string): void {
  const rule = edgeViolation(value);
  if (rule)
    throw new LocalValidationError(
      'edge-refused-value',
      `${field} looks like ${rule}; the service's edge would refuse the request with an HTML 403. Base64-encode such a value or choose another.`,
    );
}

export function checkCorrelationId(value: string): void {
  if (value.length > MAX_CORRELATION_ID)
    throw new LocalValidationError('correlationId-length', `correlationId is ${value.length} characters; the service accepts at most ${MAX_CORRELATION_ID}.`, {
      correlationId: value.slice(0, 40) + '…',
    });
  if (value.length === 0) throw new LocalValidationError('correlationId-empty', 'correlationId is empty; leave it out to have one generated.');
  checkOutgoingValue('correlationId', value);
}

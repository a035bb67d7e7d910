// Ids for delivery records: unique within the history and across restarts, cheap enough to make for every request.
import { randomBytes } from 'node:crypto';

/** Random per process (72 bits), so records kept from an earlier run never share an id with this run's. */
const PREFIX = randomBytes(9).toString('base64url');
let issued = 0;

/**
 * The next record id: the process's random prefix and a counter. A counter rather than `randomUUID()` for every
 * request: a UUID string is built from 16 pieces and then flattened, garbage on every request (docs/benchmarks.md).
 * The id only has to be unique; nothing about it is secret.
 */
export function nextDeliveryId(): string {
  return `${PREFIX}-${(++issued).toString(36)}`;
}

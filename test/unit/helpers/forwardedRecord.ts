// A verified delivery record whose forwards to an app were answered with these statuses (undefined: no answer).
import type { DeliveryRecord } from '../../../src/core/webhooks/deliveryRecord';

export const APP_URL = 'http://127.0.0.1:3000/webhooks';

/** `legacy`: as an older history line holds it, one `forward` and no `forwards`. */
export function forwardedRecord(
  webhookId: string | undefined,
  statuses: (number | undefined)[],
  legacy = false,
): DeliveryRecord {
  const forwards = statuses.map((status) => ({ target: APP_URL, status, latencyMs: 3 }));
  return {
    id: `d-${webhookId}`,
    receivedAt: '2026-11-28T10:00:00.000Z',
    method: 'POST',
    path: '/webhooks',
    headers: {},
    body: { size: 2, sha256: '', kept: 2, utf8: true },
    checks: [],
    verified: true,
    status: 200,
    durationMs: 1,
    duplicate: false,
    webhookId,
    ...(legacy ? { forward: forwards[0] } : { forwards: forwards.map((f) => ({ ...f, rules: [] })) }),
  } as DeliveryRecord;
}

// The delivery-fault setting in words: apart from the planner (deliveryFaults.ts), which needs node:crypto, so a face
// that only prints a setting (the CLI's renderers, on the path of `wfs --help`) loads none of it.
import type { DeliveryFaults } from './deliveryFaults';

/** The setting in words, e.g. "duplicate ×1 (original token), reorder, delay 0.5–2 s; seed 42; to all deliveries". */
export function deliveryFaultsText(f: DeliveryFaults): string {
  const s = (ms: number) => `${Number((ms / 1000).toFixed(3))}`;
  const words: string[] = [];
  if (f.duplicate)
    words.push(`duplicate ×${f.duplicate.copies} (${f.duplicate.freshToken ? 'fresh token' : 'original token'})`);
  if (f.reorder) words.push('reorder');
  if (f.delay)
    words.push(
      f.delay.minMs === f.delay.maxMs
        ? `delay ${s(f.delay.minMs)} s`
        : `delay ${s(f.delay.minMs)}–${s(f.delay.maxMs)} s`,
    );
  if (f.retryStorm) words.push(`retry-storm ÷${f.retryStorm.factor}`);
  if (f.burst) words.push(`burst ×${f.burst.count}`);
  const to = f.to === 'all' ? 'all deliveries' : f.to === 'workflow' ? 'workflow events' : 'test webhooks';
  return `${words.join(', ')}; seed ${f.seed}; to ${to}`;
}

// The delivery-fault setting in words: apart from the planner (deliveryFaults.ts), which needs node:crypto, so a face
// that only prints a setting (the CLI's renderers, on the path of `wfs --help`) loads none of it.
import { english, said, type Said } from '../presentation/said';
import type { DeliveryFaults } from './deliveryFaults';

/** The setting in words, e.g. "duplicate ×1 (original token), reorder, delay 0.5–2 s; seed 42; to all deliveries":
 * each part a message, so the extension words it in the user's language (numbers and the seed are values). */
export function deliveryFaultsSaid(f: DeliveryFaults): Said {
  const s = (ms: number) => `${Number((ms / 1000).toFixed(3))}`;
  const parts: Said[] = [];
  if (f.duplicate)
    parts.push(
      f.duplicate.freshToken
        ? said('duplicate ×{0} (fresh token)', f.duplicate.copies)
        : said('duplicate ×{0} (original token)', f.duplicate.copies),
    );
  if (f.reorder) parts.push(said('reorder'));
  if (f.delay)
    parts.push(
      f.delay.minMs === f.delay.maxMs
        ? said('delay {0} s', s(f.delay.minMs))
        : said('delay {0}–{1} s', s(f.delay.minMs), s(f.delay.maxMs)),
    );
  if (f.retryStorm) parts.push(said('retry-storm ÷{0}', f.retryStorm.factor));
  if (f.burst) parts.push(said('burst ×{0}', f.burst.count));
  const list = parts.slice(1).reduce<Said | undefined>((l, part) => said('{0}, {1}', l!, part), parts[0]);
  const to =
    f.to === 'all' ? said('all deliveries') : f.to === 'workflow' ? said('workflow events') : said('test webhooks');
  return list ? said('{0}; seed {1}; to {2}', list, f.seed, to) : said('seed {0}; to {1}', f.seed, to);
}

/** The setting in English, as the CLI prints it. */
export function deliveryFaultsText(f: DeliveryFaults): string {
  return english(deliveryFaultsSaid(f));
}

// The webhookIds of deliveries already processed, bounded: the oldest is forgotten first.
import { createHash } from 'node:crypto';

/** Ids longer than this are held as their SHA-256: the spec's are UUIDs (36), but a verified body may carry any
 * string, and 10,000 ids of up to the body cap would otherwise hold gigabytes. */
export const MAX_HELD_ID_CHARS = 128;

/** How many webhookIds a receiver remembers (and its history keeps for it across restarts). */
export const DEDUPE_CAP = 10_000;

/** What the set holds for a webhookId: the id, or the hash of a long one (the same id always maps to the same key). */
export function dedupeKey(id: string): string {
  return id.length <= MAX_HELD_ID_CHARS ? id : `sha256:${createHash('sha256').update(id).digest('hex')}`;
}

/** The key of a verified delivery whose signed body carries no webhookId: its token's signature, decoded. A copy of
 * the same token (a replay, relabelled with any X-Svc-Webhook-Id) is a duplicate; every token the service signs
 * anew is not. Of the form dedupeKey() gives a long id, and never equal to one but by a SHA-256 collision. */
export function tokenDedupeKey(signature: Buffer): string {
  return `sha256:${createHash('sha256').update('wfs-token\n').update(signature).digest('hex')}`;
}

export class DedupeSet {
  private readonly ids = new Set<string>();
  /** Insertion order as a ring, so forgetting the oldest is O(1). Taking `ids.values().next()` instead walks
   * over every deleted slot V8 keeps at the front of the Set, on every add once the set is full. */
  private readonly order: (string | undefined)[];
  private next = 0;

  constructor(readonly cap = DEDUPE_CAP) {
    if (!Number.isInteger(cap) || cap < 1) throw new RangeError('the dedupe capacity must be a positive integer');
    this.order = new Array<string | undefined>(cap);
  }

  get size(): number {
    return this.ids.size;
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  add(id: string): void {
    if (this.ids.has(id)) return;
    const oldest = this.order[this.next];
    if (oldest !== undefined) this.ids.delete(oldest);
    this.order[this.next] = id;
    this.next = (this.next + 1) % this.cap;
    this.ids.add(id);
  }

  /** The ids held, oldest first. */
  keys(): string[] {
    const out: string[] = [];
    for (let i = 0; i < this.cap; i++) {
      const id = this.order[(this.next + i) % this.cap];
      if (id !== undefined) out.push(id);
    }
    return out;
  }

  clear(): void {
    this.ids.clear();
    this.order.fill(undefined);
    this.next = 0;
  }
}

// What the views, commands and assistant tools read of the receiver's deliveries: the records, their kept bodies,
// and how much they hold. The history itself (adding, clearing, loading, its file) stays the receiver's, so only
// ReceiverHost changes it. New deliveries are announced by ReceiverHost.onDidReceive.
import type { DeliveryHistory, DeliveryQuery, DeliveryRecord } from '../../core/webhooks';

export interface DeliverySource {
  /** Every delivery held, oldest first. */
  all(): readonly DeliveryRecord[];
  find(id: string): DeliveryRecord | undefined;
  query(q: DeliveryQuery): DeliveryRecord[];
  /** The body bytes kept for a delivery; undefined once it is gone. */
  body(id: string): Promise<Buffer | undefined>;
  /** How many deliveries are held. */
  readonly size: number;
  readonly bytesInMemory: number;
  readonly bytesOnDisk: number;
}

/** A read-only view of `history`: an object of its own, so a reader cannot reach the history's other methods.
 * Not frozen: a host test stands a gate in front of body() on this object, as the panel reads it. */
export function deliverySource(history: DeliveryHistory): DeliverySource {
  return {
    all: () => history.all(),
    find: (id: string) => history.find(id),
    query: (q: DeliveryQuery) => history.query(q),
    body: (id: string) => history.body(id),
    get size() {
      return history.size;
    },
    get bytesInMemory() {
      return history.bytesInMemory;
    },
    get bytesOnDisk() {
      return history.bytesOnDisk;
    },
  };
}

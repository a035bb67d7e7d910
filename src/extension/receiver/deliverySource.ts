// What the views, commands and assistant tools read of the receiver's deliveries: the records, their kept bodies,
// and how much they hold. The history itself (adding, clearing, loading, its file) stays the receiver's, so only
// ReceiverHost changes it. New deliveries are announced by ReceiverHost.onDidReceive.
import type { DeliveryHistory, DeliveryQuery, DeliveryRecord, ReplayAnswer } from '../../core/webhooks';

export interface DeliverySource {
  /** Every delivery held, oldest first. */
  all(): readonly DeliveryRecord[];
  find(id: string): DeliveryRecord | undefined;
  query(q: DeliveryQuery): DeliveryRecord[];
  /** The body bytes kept for a delivery; undefined once it is gone. */
  body(id: string): Promise<Buffer | undefined>;
  /** The apps' answers to replays sent to them directly, oldest first (core's appAcknowledged reads them). */
  replayAnswers(): readonly ReplayAnswer[];
  /** How many deliveries are held. */
  readonly size: number;
  readonly bytesInMemory: number;
  readonly bytesOnDisk: number;
}

/** A read-only view of `history`: an object of its own whose history is a private (#) field, so no reader reaches
 * the history's other methods. The methods are the class's, so a host test may stand a gate in front of body() on
 * this object and delete it again. */
class HistoryReader implements DeliverySource {
  readonly #history: DeliveryHistory;

  constructor(history: DeliveryHistory) {
    this.#history = history;
  }

  all(): readonly DeliveryRecord[] {
    return this.#history.all();
  }

  find(id: string): DeliveryRecord | undefined {
    return this.#history.find(id);
  }

  query(q: DeliveryQuery): DeliveryRecord[] {
    return this.#history.query(q);
  }

  body(id: string): Promise<Buffer | undefined> {
    return this.#history.body(id);
  }

  replayAnswers(): readonly ReplayAnswer[] {
    return this.#history.replayAnswers();
  }

  get size(): number {
    return this.#history.size;
  }

  get bytesInMemory(): number {
    return this.#history.bytesInMemory;
  }

  get bytesOnDisk(): number {
    return this.#history.bytesOnDisk;
  }
}

export function deliverySource(history: DeliveryHistory): DeliverySource {
  return new HistoryReader(history);
}

// The apps' answers to replays (the panel's Replay, the assistant's wfs_replay_to_app): a replay goes to the app
// directly, not through the receiver, so no delivery record holds its answer, yet an app that answered one 2xx has
// acknowledged its webhookId as surely as after a forward. appAcknowledged reads these with the history's forwards.
// Bounded in bytes: the oldest answers are forgotten first. A history with a file keeps them there too
// (historyLine.ts), so a restart does not forget that an app acknowledged a webhookId.
import { dedupeKey } from './DedupeSet';

/** What an app answered to one replay. */
export interface ReplayAnswer {
  /** When the answer came (ISO 8601). */
  at: string;
  /** Where the replay went. */
  target: string;
  /** The webhookId it was sent under: the delivery's, or the fresh one (held as dedupeKey holds a long one). */
  webhookId?: string;
  /** The delivery replayed; absent for a fixture. */
  deliveryId?: string;
  /** The app's status; absent when it did not answer. */
  status?: number;
  /** Why there is no answer. */
  error?: string;
}

/** The bytes a replay log holds unless told otherwise: thousands of answers, a sliver of a history's budget. */
export const DEFAULT_REPLAY_LOG_BYTES = 256 * 1024;
/** Characters of a target or an error kept: a URL the user configured, an error in words. */
const MAX_TEXT_CHARS = 2048;
/** Estimated bytes of an answer's object beyond its strings (UTF-16, two bytes a character). */
const ANSWER_OVERHEAD_BYTES = 160;

function acknowledges(a: ReplayAnswer): boolean {
  return a.status !== undefined && a.status >= 200 && a.status < 300;
}

/** An answer as held: strings bounded, the webhookId as its dedupe key. */
function held(a: ReplayAnswer): ReplayAnswer {
  return {
    at: a.at.slice(0, 40),
    target: a.target.slice(0, MAX_TEXT_CHARS),
    ...(a.webhookId === undefined ? {} : { webhookId: dedupeKey(a.webhookId) }),
    ...(a.deliveryId === undefined ? {} : { deliveryId: a.deliveryId.slice(0, 200) }),
    ...(a.status === undefined ? {} : { status: a.status }),
    ...(a.error === undefined ? {} : { error: a.error.slice(0, MAX_TEXT_CHARS) }),
  };
}

/** The bytes an answer as held takes, as the log counts them. */
export function answerBytes(a: ReplayAnswer): number {
  let chars = a.at.length + a.target.length;
  chars += (a.webhookId?.length ?? 0) + (a.deliveryId?.length ?? 0) + (a.error?.length ?? 0);
  return ANSWER_OVERHEAD_BYTES + 2 * chars;
}

export class ReplayLog {
  private answers: ReplayAnswer[] = [];
  /** answers[head] is the oldest kept: dropping the oldest is O(1); the array is compacted now and then. */
  private head = 0;
  private held = 0;

  constructor(readonly maxBytes = DEFAULT_REPLAY_LOG_BYTES) {
    if (!Number.isInteger(maxBytes) || maxBytes < 1) throw new RangeError('the replay log needs a positive byte bound');
  }

  /** Bytes held, as the bound counts them. */
  get bytes(): number {
    return this.held;
  }

  /** Keeps an answer; the oldest go while the bound is exceeded. Returns the answer as held, or undefined when it is
   * too large for the bound on its own and not kept. */
  record(answer: ReplayAnswer): ReplayAnswer | undefined {
    const a = held(answer);
    const size = answerBytes(a);
    if (size > this.maxBytes) return undefined;
    this.answers.push(a);
    this.held += size;
    while (this.held > this.maxBytes) this.held -= answerBytes(this.answers[this.head++]!);
    if (this.head > 64 && this.head > this.answers.length / 2) {
      this.answers = this.answers.slice(this.head);
      this.head = 0;
    }
    return a;
  }

  /** The answers kept, oldest first. */
  all(): readonly ReplayAnswer[] {
    return this.answers.slice(this.head);
  }

  clear(): void {
    this.answers = [];
    this.head = this.held = 0;
  }
}

/** Whether one of these replays was answered 2xx under this webhookId. */
export function replayAcknowledged(answers: Iterable<ReplayAnswer>, webhookId: string): boolean {
  const key = dedupeKey(webhookId);
  for (const a of answers) if (a.webhookId === key && acknowledges(a)) return true;
  return false;
}

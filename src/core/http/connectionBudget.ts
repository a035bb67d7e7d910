// How many connections an HTTP server keeps at once, and which one gives way when a new one comes: a connection is a
// file descriptor of the process and up to its headers in memory, so their number is bounded; but a stranger who
// opens connections and says nothing must not keep a sender's delivery out. When the budget is full, the connection
// idle the longest gives way (one that never sent a byte first); the new one is refused only when every connection
// has a request in progress or has only just come.

/** What the budget reads of a server's socket (a net.Socket under node:http). */
export interface BudgetedSocket {
  readonly bytesRead: number;
  destroy(): void;
  on(event: 'close', listener: (this: BudgetedSocket) => void): unknown;
  /** node:http's response in progress on this socket, if any (set from the request's headers until its answer has
   * been written; the same field Node's own closeIdleConnections() reads). */
  readonly _httpMessage?: unknown;
}

interface Connection {
  /** The event-loop turn it was accepted in. */
  readonly turn: number;
  /** When it was last active, in the order of events: its acceptance, then each request it made. */
  since: number;
}

/** Turns a connection is kept from being chosen after it is accepted: the bytes a sender wrote at once are read in the
 * event loop's next full poll, so a sender is never closed for not having been read yet. */
const TURNS_TO_SPEAK = 2;

export class ConnectionBudget {
  private readonly all = new Map<BudgetedSocket, Connection>();
  /** Those whose request in progress is already refused (its body only hashed as it trickles in): such a request
   * holds its connection no more than an idle one does. */
  private readonly refusing = new WeakSet<BudgetedSocket>();
  /** Those not yet seen to send anything, in the order they came. */
  private readonly silent = new Map<BudgetedSocket, Connection>();
  private seq = 0;
  private turn = 0;
  private turnsToCount = 0;
  private counting = false;
  /** Connections closed to make room, and new ones refused because none could give way. */
  evicted = 0;
  refused = 0;
  private readonly forget: (this: BudgetedSocket) => void;

  /** `defer` runs its function in a later turn of the event loop (setImmediate; a test passes its own). */
  constructor(
    readonly limit: number,
    private readonly defer: (fn: () => void) => void = setImmediate,
  ) {
    const budget = this;
    this.forget = function (this: BudgetedSocket) {
      budget.all.delete(this);
      budget.silent.delete(this);
    };
  }

  get size(): number {
    return this.all.size;
  }

  /** A new connection (the server's 'connection' event): kept, after closing the longest idle one if the budget is
   * full; or closed at once, if every connection kept has a request in progress or has only just come. Returns whether
   * it was kept. */
  admit(socket: BudgetedSocket): boolean {
    if (this.all.size >= this.limit && !this.makeRoom()) {
      this.refused++;
      socket.destroy();
      return false;
    }
    const c: Connection = { turn: this.turn, since: ++this.seq };
    this.all.set(socket, c);
    this.silent.set(socket, c);
    socket.on('close', this.forget);
    this.countTurns();
    return true;
  }

  /** A request arrived on socket (the server's request handler calls this first): it is active now. */
  requestOn(socket: BudgetedSocket): void {
    const c = this.all.get(socket);
    if (c) c.since = ++this.seq;
    this.refusing.delete(socket);
  }

  /** The request in progress on socket is already refused: its connection may give way like an idle one, so a
   * stranger trickling unsigned bodies cannot hold the door either. */
  refusedOn(socket: BudgetedSocket): void {
    if (this.all.has(socket)) this.refusing.add(socket);
  }

  /** Closes one connection without a request in progress (or whose request is already refused), accepted at least
   * TURNS_TO_SPEAK turns ago: the oldest that
   * never sent a byte, else the one idle the longest (keep-alive between requests, or stalled in its headers). */
  private makeRoom(): boolean {
    const spoke = this.turn - TURNS_TO_SPEAK;
    for (const [socket, c] of this.silent) {
      // The rest came later still: they have not had their turn to speak either.
      if (c.turn > spoke) break;
      // It has spoken (a request, or part of one): it is weighed with the others below.
      if (socket.bytesRead > 0) {
        this.silent.delete(socket);
        continue;
      }
      return this.evict(socket);
    }
    let idlest: BudgetedSocket | undefined;
    let since = Infinity;
    for (const [socket, c] of this.all) {
      if (c.since < since && c.turn <= spoke && (!socket._httpMessage || this.refusing.has(socket))) {
        idlest = socket;
        since = c.since;
      }
    }
    return idlest !== undefined && this.evict(idlest);
  }

  private evict(socket: BudgetedSocket): true {
    this.forget.call(socket);
    this.evicted++;
    socket.destroy();
    return true;
  }

  /** Counts the event loop's turns while connections come, and TURNS_TO_SPEAK more after the last. */
  private countTurns(): void {
    this.turnsToCount = TURNS_TO_SPEAK;
    if (this.counting) return;
    this.counting = true;
    const tick = () => {
      this.turn++;
      if (--this.turnsToCount > 0) this.defer(tick);
      else this.counting = false;
    };
    this.defer(tick);
  }
}

// The connection budget's choices, with fake sockets and the event loop's turns run by hand.
import assert from 'node:assert/strict';
import { ConnectionBudget, type BudgetedSocket } from '../../../src/core/http/connectionBudget';

class FakeSocket implements BudgetedSocket {
  bytesRead = 0;
  destroyed = false;
  _httpMessage?: unknown;
  private onClose?: (this: BudgetedSocket) => void;
  constructor(readonly name: string) {}
  on(_event: 'close', listener: (this: BudgetedSocket) => void): this {
    this.onClose = listener;
    return this;
  }
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.onClose?.call(this);
  }
}

describe('ConnectionBudget', () => {
  let deferred: (() => void)[];
  let budget: ConnectionBudget;
  /** Runs the event loop's turns: each deferred function, and those it defers, n times. */
  const turns = (n: number) => {
    for (let i = 0; i < n; i++) for (const fn of deferred.splice(0)) fn();
  };
  const open = (name: string) => {
    const s = new FakeSocket(name);
    budget.admit(s);
    return s;
  };
  const openAll = (...names: string[]) => names.map(open);
  const closed = (...sockets: FakeSocket[]) => sockets.filter((s) => s.destroyed).map((s) => s.name);

  beforeEach(() => {
    deferred = [];
    budget = new ConnectionBudget(3, (fn) => deferred.push(fn));
  });

  it('keeps connections up to its limit', () => {
    const all = openAll('a', 'b', 'c');
    assert.deepEqual(closed(...all), []);
    assert.equal(budget.size, 3);
  });

  it('full: the oldest connection that never sent a byte gives way to a new one, one after the other', () => {
    const all = openAll('a', 'b', 'c');
    turns(2);
    const d = open('d');
    assert.deepEqual(closed(...all, d), ['a']);
    turns(2);
    const more = openAll('e', 'f', 'g', 'h');
    // h came when the three kept had all just come: it is the one refused (below).
    assert.deepEqual(closed(...all, d, ...more), ['a', 'b', 'c', 'd', 'h']);
    assert.deepEqual([budget.size, budget.evicted, budget.refused], [3, 4, 1]);
  });

  it('one that never sent a byte gives way before one that has spoken, even one idle for longer', () => {
    const [keptAlive, silent, stalled] = openAll('kept-alive', 'silent', 'stalled');
    keptAlive!.bytesRead = 200; // a request answered; idle between requests
    budget.requestOn(keptAlive!);
    stalled!.bytesRead = 10; // part of its headers
    turns(2);
    assert.deepEqual(closed(keptAlive!, silent!, stalled!, open('new')), ['silent']);
  });

  it('among those that have spoken, the one idle the longest gives way; one with a request in progress never does', () => {
    const [a, b, c] = openAll('a', 'b', 'c');
    for (const s of [a!, b!, c!]) s.bytesRead = 100;
    turns(2);
    budget.requestOn(c!);
    budget.requestOn(a!);
    budget.requestOn(b!);
    c!._httpMessage = {}; // its answer is still being made
    // c is idle the longest but busy; a was active before b.
    assert.deepEqual(closed(a!, b!, c!, open('new')), ['a']);
  });

  it('a stalled header counts as idle since its connection came: it gives way before a connection that made a request since', () => {
    const [stalled, kept] = openAll('stalled', 'kept-alive');
    stalled!.bytesRead = 10;
    kept!.bytesRead = 300;
    const third = open('third');
    third.bytesRead = 300;
    budget.requestOn(kept!);
    budget.requestOn(third);
    turns(2);
    assert.deepEqual(closed(stalled!, kept!, third, open('new')), ['stalled']);
  });

  it('refuses the new connection only while every connection has a request in progress', () => {
    const all = openAll('a', 'b', 'c');
    turns(2);
    for (const s of all) {
      s.bytesRead = 100;
      budget.requestOn(s);
      s._httpMessage = {};
    }
    const d = open('d');
    assert.deepEqual(closed(...all, d), ['d']);
    assert.deepEqual([budget.size, budget.refused], [3, 1]);
    all[1]!._httpMessage = undefined; // answered, and kept alive
    const e = open('e');
    assert.deepEqual(closed(...all, d, e), ['b', 'd']);
  });

  it('a request already refused holds its connection no longer than an idle one: it gives way, until its connection makes a new request', () => {
    const all = openAll('a', 'b', 'c');
    turns(2);
    for (const s of all) {
      s.bytesRead = 100;
      budget.requestOn(s);
      s._httpMessage = {};
    }
    budget.refusedOn(all[1]!); // an unsigned body trickling in
    const d = open('d');
    assert.deepEqual(closed(...all, d), ['b']);
    turns(2);
    d.bytesRead = 10;
    budget.requestOn(d);
    d._httpMessage = {};
    budget.refusedOn(all[0]!);
    budget.requestOn(all[0]!); // its next request is not refused (yet)
    const e = open('e');
    assert.deepEqual(closed(...all, d, e), ['b', 'e'], 'a new request is weighed afresh: nothing gives way');
  });

  it('never closes a connection before the event loop has had a full turn to read what it sent: the new one is refused instead', () => {
    const all = openAll('a', 'b', 'c');
    const d = open('d');
    assert.deepEqual(closed(...all, d), ['d'], 'accepted in the same turn: none of the three has been read yet');
    turns(1);
    const e = open('e');
    assert.deepEqual(closed(...all, e), ['e'], 'read in the next turn, maybe not yet');
    turns(1);
    const f = open('f');
    assert.deepEqual(closed(...all, f), ['a'], 'a full turn since: the oldest that sent nothing gives way');
    assert.equal(budget.refused, 2);
  });

  it('a connection that closes frees its place', () => {
    const [a, b, c] = openAll('a', 'b', 'c');
    for (const s of [a!, b!, c!]) s._httpMessage = {};
    b!.destroy();
    const d = open('d');
    assert.deepEqual(closed(a!, c!, d), []);
    assert.equal(budget.size, 3);
  });

  it('stops counting turns once connections stop coming, and starts again with the next', () => {
    openAll('a');
    turns(5);
    assert.equal(deferred.length, 0, 'nothing left deferred');
    open('b');
    assert.equal(deferred.length, 1);
  });
});

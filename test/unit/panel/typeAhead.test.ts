// The webhook panel's type-ahead (media/panel/typeAhead.js, the script the panel's page loads), with the time given:
// letters typed within a second refine the search, a longer pause starts a new one, the same letter cycles through
// the matching rows, the search wraps around, and a letter nothing matches keeps the selection. The host test
// (test/vscode/suite/panelAccess.test.ts) presses the keys in a real panel; this one owns the clock.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import fc from 'fast-check';

interface Typing {
  typed: string;
  at: number;
}
interface TypeAheadModule {
  RESET_MS: number;
  NOT_TYPING: Typing;
  typeAhead(
    typing: Typing,
    key: string,
    now: number,
    from: number,
    topics: ArrayLike<string | undefined>,
  ): {
    typing: Typing;
    row: number;
  };
}

// out/test/unit/panel → the repository's media/panel: the very file the .vsix ships.
const { wfsTypeAhead } = require(join(__dirname, '../../../../media/panel/typeAhead.js')) as {
  wfsTypeAhead: TypeAheadModule;
};
const { typeAhead, NOT_TYPING, RESET_MS } = wfsTypeAhead;

/** Types each [key, ms since the start] in turn from row `from`; returns the row selected after each key. */
function typeKeys(topics: (string | undefined)[], from: number, keys: [string, number][]): number[] {
  let typing = NOT_TYPING;
  let row = from;
  return keys.map(([key, at]) => {
    ({ typing, row } = typeAhead(typing, key, at, row, topics));
    return row;
  });
}

const TOPICS = ['alpha/started', 'beta/done', 'echo/sent', 'bear/woke', 'bee/flew'];

describe('webhook panel type-ahead (media/panel/typeAhead.js), with the time given', () => {
  it('waits one second: letters within it refine the search from the selected row', () => {
    assert.equal(RESET_MS, 1000);
    // "b" finds beta; "be" still beta; "bea" moves on to bear; "bee" (from bear) to bee.
    assert.deepEqual(
      typeKeys(TOPICS, 0, [
        ['b', 0],
        ['e', 400],
        ['a', 900],
      ]),
      [1, 1, 3],
    );
    assert.deepEqual(
      typeKeys(TOPICS, 0, [
        ['b', 0],
        ['e', 999],
        ['e', 1998],
      ]),
      [1, 1, 4],
    );
    // A second exactly between two letters is still within the search.
    assert.deepEqual(
      typeKeys(TOPICS, 0, [
        ['b', 5_000],
        ['e', 6_000],
      ]),
      [1, 1],
    );
  });

  it('after a pause of more than a second, a letter starts a new search', () => {
    // "e" 1001 ms after "b" is not "be" (beta) but "e": the next topic starting with e, echo.
    assert.deepEqual(
      typeKeys(TOPICS, 0, [
        ['b', 5_000],
        ['e', 6_001],
      ]),
      [1, 2],
    );
    // The typed letters start over too: "a" long after "b" looks for a, wrapping to alpha.
    assert.deepEqual(
      typeKeys(TOPICS, 0, [
        ['b', 0],
        ['a', 60_000],
      ]),
      [1, 0],
    );
  });

  it('a key that is not a letter ends the typing: the next letter starts a new search at once', () => {
    const first = typeAhead(NOT_TYPING, 'b', 0, 0, TOPICS);
    assert.deepEqual(first, { typing: { typed: 'b', at: 0 }, row: 1 });
    // Within the second, but after an arrow key (the panel passes NOT_TYPING): "e" alone, so echo.
    assert.equal(typeAhead(NOT_TYPING, 'e', 10, first.row, TOPICS).row, 2);
    assert.equal(typeAhead(first.typing, 'e', 10, first.row, TOPICS).row, 1);
  });

  it('the same letter again cycles through the rows that start with it, and wraps around the end', () => {
    assert.deepEqual(
      typeKeys(TOPICS, 0, [
        ['b', 0],
        ['b', 100],
        ['b', 200],
        ['b', 300],
      ]),
      [1, 3, 4, 1],
    );
    // From the last row the search goes on at the top; no row selected (-1) starts at the top.
    assert.equal(typeAhead(NOT_TYPING, 'a', 0, 4, TOPICS).row, 0);
    assert.equal(typeAhead(NOT_TYPING, 'a', 0, -1, TOPICS).row, 0);
    assert.equal(typeAhead(NOT_TYPING, 'b', 0, -1, TOPICS).row, 1);
  });

  it('ignores case, and a row without a topic matches nothing', () => {
    const topics = [undefined, 'Workflow/Completed', 'orders/created'];
    assert.equal(typeAhead(NOT_TYPING, 'w', 0, 2, topics).row, 1);
    assert.equal(typeAhead(NOT_TYPING, 'O', 0, 1, topics).row, 2);
  });

  it('a letter nothing matches keeps the selected row (or none), and the next letters still count', () => {
    assert.equal(typeAhead(NOT_TYPING, 'z', 0, 2, TOPICS).row, 2);
    assert.equal(typeAhead(NOT_TYPING, 'z', 0, -1, TOPICS).row, -1);
    assert.equal(typeAhead(NOT_TYPING, 'a', 0, -1, []).row, -1);
    // "bz" matches nothing: the row "b" found stays selected.
    assert.deepEqual(
      typeKeys(TOPICS, 0, [
        ['b', 0],
        ['z', 100],
      ]),
      [1, 1],
    );
  });

  it('property: the row selected starts with what was typed (its one letter when cycling) or is the row before', () => {
    const letter = fc.constantFrom('a', 'b', 'B', 'c', '/');
    const topic = fc.option(fc.stringMatching(/^[abcAB/]{0,4}$/), { nil: undefined });
    fc.assert(
      fc.property(
        fc.array(topic, { maxLength: 8 }),
        fc.array(fc.tuple(letter, fc.integer({ min: 0, max: 2_500 })), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: -1, max: 7 }),
        (topics, keys, start) => {
          let from = Math.min(start, topics.length - 1);
          let typing = NOT_TYPING;
          // What a user typed, as they would count it: a pause of over a second starts again.
          let typed = '';
          let now = 0;
          for (const [key, pause] of keys) {
            typed = pause > RESET_MS ? key : typed + key;
            now += pause;
            const prefix = ([...typed].every((c) => c === typed[0]) ? typed[0]! : typed).toLowerCase();
            const found = typeAhead(typing, key, now, from, topics);
            const matches = (j: number) => (topics[j] ?? '').toLowerCase().startsWith(prefix);
            assert.equal(found.typing.typed, typed);
            assert.ok(found.row === from || matches(found.row), `row ${found.row} does not start with "${prefix}"`);
            assert.ok(found.row >= -1 && found.row < topics.length);
            // A row that matches is always found, whichever row the search started from.
            if (topics.some((_, j) => matches(j))) assert.ok(matches(found.row), `"${prefix}" matches a row`);
            ({ typing } = found);
            from = found.row;
          }
        },
      ),
      { numRuns: 200, seed: 1 },
    );
  });
});

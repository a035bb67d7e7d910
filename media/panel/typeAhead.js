// The delivery list's type-ahead (webview side), as a pure function of what was typed and when: the panel passes
// the time in (performance.now()), so the one-second pause that starts a new search is tested with given times
// (test/unit/panel/typeAhead.test.ts). Loaded by the panel's page before panel.js; a CommonJS module in Node.
// @ts-check
(function (exportTo) {
  /** A pause longer than this (ms) between two letters starts a new search. */
  const RESET_MS = 1000;

  /**
   * What was typed so far, and when the last letter came (ms, any one clock).
   * @typedef {{ typed: string, at: number }} Typing
   */

  /** Nothing typed: the next letter starts a search. A key that is not a letter ends the typing with this. */
  /** @type {Typing} */
  const NOT_TYPING = Object.freeze({ typed: '', at: -Infinity });

  /**
   * The row a letter selects: the next row (after `from`, wrapping) whose topic starts with the letters typed
   * within a second of each other. One letter, or the same one again, moves on to the next such row; more letters
   * refine from the current one. No row matching keeps `from`.
   * @param {Typing} typing what was typed before this key
   * @param {string} key the letter typed
   * @param {number} now when (ms, the clock `typing.at` was read from)
   * @param {number} from the selected row's index (-1: none)
   * @param {ArrayLike<string | undefined>} topics each row's topic, in the list's order
   * @returns {{ typing: Typing, row: number }}
   */
  function typeAhead(typing, key, now, from, topics) {
    const typed = now - typing.at > RESET_MS ? key : typing.typed + key;
    const cycling = [...typed].every((c) => c === typed[0]);
    const start = cycling ? from + 1 : Math.max(from, 0);
    const prefix = (cycling ? typed[0] : typed).toLowerCase();
    const next = { typed, at: now };
    for (let k = 0; k < topics.length; k++) {
      const j = (start + k) % topics.length;
      if ((topics[j] || '').toLowerCase().startsWith(prefix)) return { typing: next, row: j };
    }
    return { typing: next, row: from };
  }

  exportTo.wfsTypeAhead = { RESET_MS, NOT_TYPING, typeAhead };
})(typeof module === 'object' && module.exports ? module.exports : window);

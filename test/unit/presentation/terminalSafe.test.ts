// Outside text on a terminal: no control, C1, bidi control or line/paragraph separator reaches it raw, text without
// them is unchanged, and every output reads back one way only.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { terminalSafe, terminalSafeDeep } from '../../../src/core/presentation';

const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

/** The reading a person (or this test) gives the output: an odd run of backslashes before an escape ends in it. */
function readBack(text: string): string {
  return text.replace(/(\\+)(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4})/g, (_m, run: string, esc: string) => {
    const literal = '\\'.repeat(Math.floor(run.length / 2));
    if (run.length % 2 === 0) return literal + esc;
    return literal + String.fromCharCode(parseInt(esc.slice(1), 16));
  });
}

/** Strings rich in what matters here: controls, C1, bidi, separators, backslashes, x/u and hex digits. */
const hostile = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '\x1b',
        '\x9b',
        '\u202e',
        '\u2066',
        '\u061c',
        '\u2028',
        '\u2029',
        '\r',
        '\n',
        '\t',
        '\x7f',
        '\x00',
        '\x85',
        '\\',
        '\\\\',
        'x',
        'u',
        '1b',
        '009b',
        'e',
        '[31m',
        'é',
        '😀',
      ),
      fc.string({ unit: 'binary', maxLength: 4 }),
    ),
    { maxLength: 24 },
  )
  .map((parts) => parts.join(''));

describe('terminalSafe: outside text on a terminal', () => {
  it('writes ESC, C1, bidi controls and U+2028 as visible escapes', () => {
    assert.equal(terminalSafe('order\x1b[31m/red'), 'order\\x1b[31m/red');
    assert.equal(terminalSafe('iss \x9b2J'), 'iss \\u009b2J');
    assert.equal(terminalSafe('abc\u202edcba\u2066\u2028'), 'abc\\u202edcba\\u2066\\u2028');
    assert.equal(terminalSafe('a\rb\x7f\x00'), 'a\\x0db\\x7f\\x00');
  });

  it('keeps tab, line feed, other text and ordinary backslashes as they are', () => {
    assert.equal(terminalSafe('line one\n\tline two é 😀'), 'line one\n\tline two é 😀');
    assert.equal(terminalSafe('C:\\Users\\dev\\orders.webhook.json'), 'C:\\Users\\dev\\orders.webhook.json');
    assert.equal(terminalSafe('\\users\\xyz'), '\\users\\xyz');
  });

  it('doubles a backslash only where it could be read as the start of an escape', () => {
    // The five characters \ x 1 b and the one ESC must not look alike.
    assert.equal(terminalSafe('\\x1b'), '\\\\x1b');
    assert.equal(terminalSafe('\\u202e'), '\\\\u202e');
    assert.equal(terminalSafe('\\\x1b'), '\\\\\\x1b');
  });

  it('property: the output holds none of the escaped characters', () => {
    fc.assert(
      fc.property(hostile, (s) => !UNSAFE.test(terminalSafe(s))),
      { numRuns: 500, seed: 74 },
    );
  });

  it('property: every output reads back to its input, one way only', () => {
    fc.assert(
      fc.property(hostile, (s) => readBack(terminalSafe(s)) === s),
      { numRuns: 500, seed: 74 },
    );
  });

  it('property: text without those characters changes only where a backslash run meets an escape-like sequence', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (s) => {
        fc.pre(!UNSAFE.test(s));
        const out = terminalSafe(s);
        if (!/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4})/.test(s)) return out === s;
        return out.replace(/\\+(?=x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4})/g, (r) => r.slice(r.length / 2)) === s;
      }),
      { numRuns: 500, seed: 74 },
    );
  });

  it('terminalSafeDeep escapes every string of an event, keys too, and leaves numbers and booleans', () => {
    const out = terminalSafeDeep({ topic: 'a\x1bb', n: 3, ok: true, headers: { 'x-\u202e': ['\x9b'] }, none: null });
    assert.deepEqual(out, { topic: 'a\\x1bb', n: 3, ok: true, headers: { 'x-\\u202e': ['\\u009b'] }, none: null });
  });
});

// The "Workflow Service" output channel's lines (#74, item 7): a stranger's controls, C1 and bidi controls (a
// delivery's topic, an app's answer, a service's error) reach the log as visible escapes, and secrets are still
// masked. logLine is what ExtensionLog hands the channel for every line, so this is the channel's text exactly.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { logLine } from '../../../src/extension/log/logLine';

const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

describe('the output channel line (logLine)', () => {
  it("writes a stranger's ESC, CSI, C1 and bidi controls as visible escapes", () => {
    assert.equal(
      logLine('forwarded order.paid\x1b[2J\u009b31m to http://127.0.0.1:3000: 200'),
      'forwarded order.paid\\x1b[2J\\u009b31m to http://127.0.0.1:3000: 200',
    );
    // A right-to-left override would show "gnp.exe" reversed; a line separator would start a line of its own.
    assert.equal(
      logLine('topic a\u202egnp.exe\u2066x\u2069 b\u2028[error] forged'),
      'topic a\\u202egnp.exe\\u2066x\\u2069 b\\u2028[error] forged',
    );
    assert.equal(logLine('plain line, tab\tkept'), 'plain line, tab\tkept');
  });

  it('masks secrets first, then escapes what is around them', () => {
    const line = logLine('app answered \x1b[31m{"password":"hunter2"} Authorization: Bearer abc.def-123\u202e');
    assert.ok(!line.includes('hunter2') && !line.includes('abc.def-123'), line);
    assert.match(line, /^app answered \\x1b\[31m\{"password":<redacted>\} Authorization: Bearer <redacted>\\u202e$/);
  });

  it('no line it gives holds a raw control, C1, bidi control or separator (line feed and tab excepted)', () => {
    const char = fc.oneof(
      fc.constantFrom(
        '\x1b',
        '\x9b',
        '\x85',
        '\x07',
        '\r',
        '\x7f',
        '\u202e',
        '\u2066',
        '\u061c',
        '\u2028',
        '\u2029',
        '\\',
      ),
      fc.string({ maxLength: 4 }),
      fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
    );
    fc.assert(
      fc.property(fc.array(char, { maxLength: 40 }), (parts) => {
        assert.doesNotMatch(logLine(parts.join('')), UNSAFE);
      }),
      { numRuns: 300, seed: 74 },
    );
  });
});

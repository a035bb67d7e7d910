// The one topic-pattern matcher: its documented semantics, agreement with a plain backtracking reference on small
// inputs (fast-check), its refusals, and a time bound on the patterns that froze `wfs mcp` for over a minute (#74).
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  compileTopicPattern,
  topicPatternProblem,
  TopicPatternError,
  TOPIC_PATTERN_MAX_LENGTH,
} from '../../../src/core/patterns';

/** The semantics written out plainly, by trying every split (exponential; small inputs only). */
function reference(pattern: string[], topic: string[]): boolean {
  if (pattern.length === 0) return topic.length === 0;
  const [p, ...rest] = pattern;
  if (p === '**') {
    for (let k = 0; k <= topic.length; k++) if (reference(rest, topic.slice(k))) return true;
    return false;
  }
  if (p === '*') {
    for (let k = 0; k <= topic.length; k++) {
      if (reference(rest, topic.slice(k))) return true;
      if (topic[k] === '/') return false;
    }
    return false;
  }
  if (topic.length === 0) return false;
  if (p === '?') return topic[0] !== '/' && reference(rest, topic.slice(1));
  return p === topic[0] && reference(rest, topic.slice(1));
}

/** A pattern as tokens, the way the reference reads it: `**`, `*`, `?`, or one character. */
function tokens(pattern: string): string[] {
  const out: string[] = [];
  const chars = [...pattern];
  for (let i = 0; i < chars.length; i++) {
    if (chars[i] === '*' && chars[i + 1] === '*') {
      out.push('**');
      i++;
    } else out.push(chars[i]!);
  }
  return out;
}

const matches = (pattern: string, topic: string) => compileTopicPattern(pattern).matches(topic);

// Small alphabets so that matches are common and every wildcard meets `/` often.
const topicChar = fc.constantFrom('a', 'b', '/', 'é', '😀');
const patternPiece = fc.constantFrom('a', 'b', '/', '*', '**', '?', '😀');
const smallTopic = fc.array(topicChar, { maxLength: 12 }).map((cs) => cs.join(''));
const smallPattern = fc
  .array(patternPiece, { minLength: 1, maxLength: 9 })
  .map((ps) => ps.join(''))
  .filter((p) => !p.includes('***'));

describe('topic patterns (core/patterns)', () => {
  it('matches * within one /-separated part, ** across parts, ? one character but /', () => {
    assert.equal(matches('payments/*', 'payments/settled'), true);
    assert.equal(matches('payments/*', 'payments/a/b'), false, '* stays within one part');
    assert.equal(matches('payments/*', 'payments/'), true, '* may match nothing');
    assert.equal(matches('payments/**', 'payments/a/b'), true);
    assert.equal(matches('**/settled', 'payments/eu/settled'), true);
    assert.equal(matches('**', ''), true);
    assert.equal(matches('workflow/complete?', 'workflow/completed'), true);
    assert.equal(matches('workflow?completed', 'workflow/completed'), false, '? never takes /');
    assert.equal(matches('a?c', 'a😀c'), true, '? takes one character, not one UTF-16 unit');
    assert.equal(matches('workflow/completed', 'workflow/completed'), true);
    assert.equal(matches('workflow/completed', 'workflow/completed/x'), false, 'the whole topic must match');
    assert.equal(matches('a.b', 'axb'), false, 'no character but * and ? is special');
    assert.equal(matches('(a|b)+', '(a|b)+'), true);
  });

  it('agrees with a plain backtracking matcher on small patterns and topics', () => {
    fc.assert(
      fc.property(smallPattern, smallTopic, (pattern, topic) => {
        assert.equal(matches(pattern, topic), reference(tokens(pattern), [...topic]), `${pattern} against ${topic}`);
      }),
      { numRuns: 3000, seed: 74 },
    );
  });

  it('agrees with the reference on topics built to match (so that true is tested as often as false)', () => {
    // A topic made by filling each wildcard of the pattern: the reference says yes; so must the matcher.
    const filled = smallPattern.chain((pattern) =>
      fc
        .tuple(
          ...tokens(pattern).map((t) =>
            t === '**'
              ? fc.array(topicChar, { maxLength: 3 }).map((cs) => cs.join(''))
              : t === '*'
                ? fc.array(fc.constantFrom('a', 'b', 'é'), { maxLength: 3 }).map((cs) => cs.join(''))
                : t === '?'
                  ? fc.constantFrom('a', '😀')
                  : fc.constant(t),
          ),
        )
        .map((parts) => ({ pattern, topic: parts.join('') })),
    );
    fc.assert(
      fc.property(filled, ({ pattern, topic }) => {
        assert.equal(reference(tokens(pattern), [...topic]), true);
        assert.equal(matches(pattern, topic), true, `${pattern} against ${topic}`);
      }),
      { numRuns: 1000, seed: 7 },
    );
  });

  it('matches a pattern without wildcards against itself only', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 40, unit: 'grapheme' }).filter((s) => !/[*?]/.test(s)),
        fc.string({ maxLength: 40 }),
        (literal, other) => {
          assert.equal(matches(literal, literal), true);
          assert.equal(matches(literal, other), other === literal);
        },
      ),
      { numRuns: 300, seed: 3 },
    );
  });

  it('finishes the hostile patterns at once (the RegExp it replaced took over 58 s on the first)', () => {
    const topic = 'a'.repeat(120) + '/b';
    const hostile: [string, string][] = [
      ['**a**a**a**a**a**a**c', topic],
      ['**a'.repeat(60) + '**c', topic],
      ['*a'.repeat(100), 'a'.repeat(1000) + 'b'],
      ['*a'.repeat(99) + 'c', 'a'.repeat(1000)],
      ['?*'.repeat(100), 'a'.repeat(1000) + '/'],
      ['**/'.repeat(66), '/'.repeat(1000) + 'x'],
    ];
    const started = process.hrtime.bigint();
    for (const [pattern, value] of hostile) assert.equal(matches(pattern, value), false, pattern);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    // Generous for a shared, loaded machine: the bound is (200 + 1) × (1001 + 1) steps per pattern.
    assert.ok(ms < 200, `the hostile patterns took ${ms.toFixed(1)} ms`);
  });

  it('refuses a pattern over the limit, an empty one and ***, saying what to write instead', () => {
    assert.equal(topicPatternProblem('a'.repeat(TOPIC_PATTERN_MAX_LENGTH)), undefined);
    assert.throws(
      () => compileTopicPattern('a'.repeat(TOPIC_PATTERN_MAX_LENGTH + 1)),
      (err: Error) =>
        err instanceof TopicPatternError &&
        /is 201 characters long, over the limit of 200: shorten it/.test(err.message) &&
        err.message.length < 300,
    );
    assert.throws(() => compileTopicPattern(''), /The topic pattern "" is empty/);
    assert.throws(() => compileTopicPattern('a/***'), /holds \*\*\* : use \* .* or \*\*/);
  });
});

// The one matcher for topic patterns (the assistant's tools, the webhook panel's filter, forward rules and
// `--forward`). A pattern may come from a model, a workspace's settings or a web page's text box, and a topic from a
// stranger, so matching never backtracks and never builds a RegExp from either: it runs the pattern as a small
// automaton over the topic's characters, at most (pattern length + 1) × (topic length + 1) steps.
import { english, said, SaidError, type Said } from '../presentation/said';

/** Patterns longer than this are refused (forward rules have always allowed 200 characters). */
export const TOPIC_PATTERN_MAX_LENGTH = 200;

/** A pattern that cannot be used: the message says what is wrong with it and what to write instead. */
export class TopicPatternError extends SaidError {
  constructor(what: Said) {
    super(what);
    this.name = 'TopicPatternError';
  }
}

export interface TopicPattern {
  /** The pattern as written. */
  readonly text: string;
  /** Whether the whole of `value` matches the pattern. */
  matches(value: string): boolean;
}

// Tokens are code points (characters that stand for themselves) or one of these, below any code point.
const ONE = -1; // `?`: one character other than `/`
const STAR = -2; // `*`: any run of characters other than `/`, the empty run included
const GLOBSTAR = -3; // `**`: any run of characters, `/` included
const SLASH = 0x2f;
const ASTERISK = 0x2a;
const QUESTION = 0x3f;

/** What is wrong with a pattern, as words that follow "the pattern …", or undefined when it can be used. */
export function topicPatternProblem(text: string): string | undefined {
  const problem = topicPatternProblemSaid(text);
  return problem && english(problem);
}

/** The same, for a face that words it in the user's language. */
export function topicPatternProblemSaid(text: string): Said | undefined {
  if (text.length === 0) return said('is empty: give a topic, or leave the pattern out to match every topic');
  if (text.length > TOPIC_PATTERN_MAX_LENGTH)
    return said(
      'is {0} characters long, over the limit of {1}: shorten it, using * (within one /-separated part) or ** (across them) for what varies',
      text.length,
      TOPIC_PATTERN_MAX_LENGTH,
    );
  if (text.includes('***')) return said('holds *** : use * (within one /-separated part) or ** (across them)');
  return undefined;
}

/** The pattern, checked and ready to match; a TopicPatternError names what is wrong with a bad one.
 * `*` is any run of characters within one `/`-separated part, `**` any run across parts (`/` included), `?` one
 * character other than `/`; every other character stands for itself. Characters are Unicode code points. */
export function compileTopicPattern(text: string): TopicPattern {
  const problem = topicPatternProblemSaid(text);
  if (problem) throw new TopicPatternError(said('The topic pattern {0} {1}.', quoteShort(text), problem));
  if (!/[*?]/.test(text)) return { text, matches: (value) => value === text };
  if (text === '**') return { text, matches: () => true };
  const automaton = new Automaton(tokenize(text));
  // What comes before the first wildcard must begin the topic: most topics are turned away by that alone.
  const prefix = text.slice(0, text.search(/[*?]/));
  return { text, matches: (value) => value.startsWith(prefix) && automaton.matches(value) };
}

function tokenize(text: string): Int32Array {
  const out: number[] = [];
  const chars = Array.from(text, (c) => c.codePointAt(0)!);
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === ASTERISK && chars[i + 1] === ASTERISK) {
      out.push(GLOBSTAR);
      i++;
    } else if (c === ASTERISK) out.push(STAR);
    else if (c === QUESTION) out.push(ONE);
    else out.push(c);
  }
  return Int32Array.from(out);
}

/** The automaton: state i means "the first i tokens matched what was read so far". Only live states are visited, and
 * each character of the value moves each of them at most one token on, so the work is bounded by tokens × characters,
 * whatever the pattern. The state lists are the compiled pattern's own, reused by each (synchronous) match. */
class Automaton {
  private live: Int32Array;
  private next: Int32Array;
  /** seen[s] === round: state s is already in this round's list. */
  private readonly seen: Uint32Array;
  private round = 0;

  constructor(private readonly tokens: Int32Array) {
    this.live = new Int32Array(tokens.length + 1);
    this.next = new Int32Array(tokens.length + 1);
    this.seen = new Uint32Array(tokens.length + 1);
  }

  matches(value: string): boolean {
    const { tokens } = this;
    const n = tokens.length;
    this.newRound();
    let liveCount = this.add(this.live, 0, 0);
    for (let k = 0; k < value.length; k++) {
      // One code point: a surrogate pair is one character, as `?` promises.
      let c = value.charCodeAt(k);
      if (c >= 0xd800 && c <= 0xdbff && k + 1 < value.length) {
        const low = value.charCodeAt(k + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
          k++;
        }
      }
      this.newRound();
      let nextCount = 0;
      for (let j = 0; j < liveCount; j++) {
        const s = this.live[j]!;
        if (s === n) continue;
        const t = tokens[s]!;
        if (t === GLOBSTAR || (t === STAR && c !== SLASH)) nextCount = this.add(this.next, nextCount, s);
        else if (t === c || (t === ONE && c !== SLASH)) nextCount = this.add(this.next, nextCount, s + 1);
      }
      if (nextCount === 0) return false;
      [this.live, this.next] = [this.next, this.live];
      liveCount = nextCount;
    }
    for (let j = 0; j < liveCount; j++) if (this.live[j] === n) return true;
    return false;
  }

  /** Adds state s to a list once, and the states a star lets through without a character (it may match nothing). */
  private add(list: Int32Array, count: number, s: number): number {
    for (;;) {
      if (this.seen[s] === this.round) return count;
      this.seen[s] = this.round;
      list[count++] = s;
      const t = this.tokens[s];
      if (t !== STAR && t !== GLOBSTAR) return count;
      s++;
    }
  }

  private newRound(): void {
    // Wraps after 2^32 rounds: start the marks again rather than mistake an old round for this one.
    if (++this.round === 0x1_0000_0000) {
      this.seen.fill(0);
      this.round = 1;
    }
  }
}

/** The pattern in quotes for a message, cut when long: an error never repeats a huge input whole. */
function quoteShort(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}

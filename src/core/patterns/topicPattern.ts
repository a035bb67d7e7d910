// The one matcher for topic patterns (the assistant's tools, the webhook panel's filter, forward rules and
// `--forward`). A pattern may come from a model, a workspace's settings or a web page's text box, and a topic from a
// stranger, so matching never backtracks and never builds a RegExp from either: it runs the pattern as a small
// automaton over the topic's characters, at most (pattern length + 1) × (topic length + 1) steps.

/** Patterns longer than this are refused (forward rules have always allowed 200 characters). */
export const TOPIC_PATTERN_MAX_LENGTH = 200;

/** A pattern that cannot be used: the message says what is wrong with it and what to write instead. */
export class TopicPatternError extends Error {
  constructor(message: string) {
    super(message);
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
  if (text.length === 0) return 'is empty: give a topic, or leave the pattern out to match every topic';
  if (text.length > TOPIC_PATTERN_MAX_LENGTH)
    return `is ${text.length} characters long, over the limit of ${TOPIC_PATTERN_MAX_LENGTH}: shorten it, using * (within one /-separated part) or ** (across them) for what varies`;
  if (text.includes('***')) return 'holds *** : use * (within one /-separated part) or ** (across them)';
  return undefined;
}

/** The pattern, checked and ready to match; a TopicPatternError names what is wrong with a bad one.
 * `*` is any run of characters within one `/`-separated part, `**` any run across parts (`/` included), `?` one
 * character other than `/`; every other character stands for itself. Characters are Unicode code points. */
export function compileTopicPattern(text: string): TopicPattern {
  const problem = topicPatternProblem(text);
  if (problem) throw new TopicPatternError(`The topic pattern ${quoteShort(text)} ${problem}.`);
  if (!/[*?]/.test(text)) return { text, matches: (value) => value === text };
  if (text === '**') return { text, matches: () => true };
  const tokens = tokenize(text);
  return { text, matches: (value) => run(tokens, value) };
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

/** The automaton: state i means "the first i tokens matched what was read so far". Each character of the value moves
 * every live state at most one token on, so the work is bounded by tokens × characters, whatever the pattern. */
function run(tokens: Int32Array, value: string): boolean {
  const n = tokens.length;
  let live = new Uint8Array(n + 1);
  let next = new Uint8Array(n + 1);
  live[0] = 1;
  skipEmptyRuns(tokens, live);
  for (const ch of value) {
    const c = ch.codePointAt(0)!;
    next.fill(0);
    let any = false;
    for (let i = 0; i < n; i++) {
      if (live[i] === 0) continue;
      const t = tokens[i]!;
      if (t === GLOBSTAR || (t === STAR && c !== SLASH)) {
        next[i] = 1; // a star takes the character and may take more
        any = true;
      } else if (t === c || (t === ONE && c !== SLASH)) {
        next[i + 1] = 1;
        any = true;
      }
    }
    if (!any) return false;
    skipEmptyRuns(tokens, next);
    [live, next] = [next, live];
  }
  return live[n] === 1;
}

/** A star may match nothing: where a state before a star is live, so is the state after it. */
function skipEmptyRuns(tokens: Int32Array, states: Uint8Array): void {
  for (let i = 0; i < tokens.length; i++)
    if (states[i] === 1 && (tokens[i] === STAR || tokens[i] === GLOBSTAR)) states[i + 1] = 1;
}

/** The pattern in quotes for a message, cut when long: an error never repeats a huge input whole. */
function quoteShort(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}

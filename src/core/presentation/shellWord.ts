// A path or value inside a command printed for the user to paste: left bare when a POSIX shell reads it as one word
// unchanged, single-quoted otherwise.
import { shellQuote } from './shellQuote';

export function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : shellQuote(s);
}

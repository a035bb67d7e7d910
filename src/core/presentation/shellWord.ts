// A value inside a command printed for the user to paste: left bare when a POSIX shell (bash, zsh, dash) reads it as
// one word unchanged, single-quoted otherwise. The one bare-word rule: every command shown to users uses it.
import { shellQuote } from './shellQuote';

/** Letters, digits and `_@%+=:,./-`: none is special to a POSIX shell, nor `=` to zsh except first (`=ls` is a path
 * there), so a leading `=` is quoted. */
const BARE_WORD = /^[\w@%+:,./-][\w@%+=:,./-]*$/;

export function shellWord(s: string): string {
  return BARE_WORD.test(s) ? s : shellQuote(s);
}

/** `wfs COMMAND --flag value …` to paste: each value one shell word, a flag given as `[name]` alone. */
export function wfsCommandLine(command: string, flags: ([string, string] | [string])[]): string {
  return [`wfs ${command}`, ...flags.map(([f, v]) => (v === undefined ? `--${f}` : `--${f} ${shellWord(v)}`))].join(
    ' ',
  );
}

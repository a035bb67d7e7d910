// POSIX single-quoting for "copy as curl": safe for any text but NUL.
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Bytes left as they are inside bash's $'…': none of them is a quote, an escape, `!` or a terminal control. */
const PLAIN_IN_ANSI_C = /[A-Za-z0-9 ,./:=_+-]/;

/**
 * One bash (and zsh) word for exactly these bytes, in a command made only of printable ASCII. Printable ASCII is
 * single-quoted. Anything else is an ANSI-C `$'…'` word with each other byte as `\xHH`: a pasted command then holds no
 * byte a terminal acts on (Ctrl-C, Escape) and none whose meaning depends on the terminal's encoding. No argument can
 * hold NUL: the caller refuses it first.
 */
export function bashWord(bytes: Buffer): string {
  if (bytes.includes(0)) throw new Error('a shell argument cannot hold NUL');
  const text = bytes.toString('latin1');
  if (/^[\x20-\x7e]*$/.test(text)) return shellQuote(text);
  let out = "$'";
  for (const c of text) out += PLAIN_IN_ANSI_C.test(c) ? c : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
  return `${out}'`;
}

// POSIX single-quoting for "copy as curl": safe for any text but NUL.
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

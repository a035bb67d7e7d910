// Secrets never reach the log: bearer tokens, JWTs, passwords and refresh tokens are masked in every line.

const JWT = /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g;
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;
const SECRET_FIELD =
  /("?(?:password|access_token|refresh_token|accessToken|refreshToken|client_secret)"?\s*[:=]\s*)("(?:[^"\\]|\\.)*"|[^\s,;&}]+)/gi;

export function redact(line: string): string {
  return line
    .replace(BEARER, (_m, scheme: string) => `${scheme} <redacted>`)
    .replace(SECRET_FIELD, (_m, k: string) => `${k}<redacted>`)
    .replace(JWT, '<redacted JWT>');
}

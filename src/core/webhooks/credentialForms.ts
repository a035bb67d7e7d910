// The forms in which an app can echo a credential back: as it was sent, base64 or base64url encoded, a JWT's
// signature alone (with the header and claims a tool shows, that rebuilds the token), or as UTF-16 text. A redaction
// that looked for the value alone let each of these through (found by the independent check of #74).

/** Forms shorter than this are not looked for: they would match ordinary text. */
const MIN_FORM_LENGTH = 8;

/** The text forms of `value` to replace in a text: itself, its base64 (with and without padding), its base64url, and
 * for a JWT its signature segment. Longest first, so a form that contains another is replaced whole. */
export function credentialTextForms(value: string): string[] {
  if (value.length < MIN_FORM_LENGTH) return [];
  const bytes = Buffer.from(value, 'utf8');
  const forms = new Set([value, bytes.toString('base64'), bytes.toString('base64').replace(/=+$/, '')]);
  forms.add(bytes.toString('base64url'));
  const segments = value.split('.');
  if (segments.length === 3 && segments[2]!.length >= 16) forms.add(segments[2]!);
  return [...forms].filter((f) => f.length >= MIN_FORM_LENGTH).sort((a, b) => b.length - a.length);
}

/** The byte forms of `value` to look for in a binary body: each text form as UTF-8, and the value as UTF-16 (little
 * and big endian). */
export function credentialByteForms(value: string): Buffer[] {
  const le = Buffer.from(value, 'utf16le');
  const be = Buffer.from(le).swap16();
  return [...credentialTextForms(value).map((f) => Buffer.from(f, 'utf8')), le, be];
}

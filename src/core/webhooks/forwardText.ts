// One line of text per app a delivery was forwarded to: what it answered, a failure first. Shared by `wfs listen` on a
// terminal, the receiver task's terminal in VS Code, and its problem matcher (which reads "forward failed").
import { forwardFailed, type ForwardAnswerRecord } from './forwardAnswer';

/** The mark of an answer from a target whose certificate the rule said not to check (`insecure`). */
const CERTIFICATE_NOT_CHECKED = '(certificate not checked)';

/** Characters of the app's body shown on the line; the panel and the JSON line have the first 4 KiB. */
const BODY_PREVIEW = 160;

export function forwardLine(f: ForwardAnswerRecord): string {
  const head = forwardFailed(f) ? 'forward failed' : 'forwarded';
  const answered =
    f.status === undefined
      ? (f.error ?? 'no answer')
      : `${f.status}${f.redirect !== undefined ? ` redirect to ${f.redirect} (not followed)` : ''}${f.error ? `, ${f.error}` : ''}`;
  return `${head}: ${f.target}${f.insecure ? ` ${CERTIFICATE_NOT_CHECKED}` : ''} → ${answered} in ${f.latencyMs} ms${bodyPreview(f)}`;
}

function bodyPreview(f: ForwardAnswerRecord): string {
  if (f.bodySize === undefined || f.bodySize === 0) return '';
  const size = `${f.bodySize} B${f.truncated ? ', first 4 KiB kept' : ''}`;
  if (f.bodyWithheld !== undefined) return ` (${size}, not shown: it holds a credential this process holds)`;
  if (f.body === undefined) return ` (${size}, binary)`;
  const flat = f.body.replace(/\s+/g, ' ').trim();
  return ` (${size}): ${JSON.stringify(flat.length > BODY_PREVIEW ? flat.slice(0, BODY_PREVIEW) + '…' : flat)}`;
}

// The audit scorecard's messages, one discriminated union per direction, like the webhook panel's
// (panelProtocol.ts). media/panel/audit.js names these types in its JSDoc; the host validates every message from the
// webview on arrival and answers an unknown or malformed one with a log line, never an exception.
import type { AuditSummary } from '../../core/audit';

export type AuditExportFormat = 'md' | 'json';

/** Webview → extension. */
export type AuditRequest =
  | { type: 'ready' }
  | { type: 'rerun' }
  | { type: 'export'; format: AuditExportFormat }
  | { type: 'copy-curl'; id: string };

/** Extension → webview. */
export type AuditUpdate =
  | { type: 'running'; target: string }
  /** `summary`: already in the user's words (auditWorded), shown as text. `advice`: when the audit stopped at a
   * refused genuine delivery, what happened and how to make them match. */
  | { type: 'summary'; summary: AuditSummary; advice?: string }
  | { type: 'error'; message: string };

/** The message as an AuditRequest, or a reason it is not one. */
export function parseAuditRequest(m: unknown): AuditRequest | { invalid: string } {
  if (!m || typeof m !== 'object' || Array.isArray(m) || typeof (m as { type?: unknown }).type !== 'string')
    return { invalid: 'not a message object with a type' };
  const msg = m as Record<string, unknown> & { type: string };
  switch (msg.type) {
    case 'ready':
      return { type: 'ready' };
    case 'rerun':
      return { type: 'rerun' };
    case 'export':
      return msg.format === 'md' || msg.format === 'json'
        ? { type: 'export', format: msg.format }
        : { invalid: 'a malformed "export" message' };
    case 'copy-curl':
      return typeof msg.id === 'string'
        ? { type: 'copy-curl', id: msg.id }
        : { invalid: 'a malformed "copy-curl" message' };
    default:
      return { invalid: `an unknown message type "${msg.type}"` };
  }
}

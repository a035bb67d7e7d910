// The explorer keeps each workflow's last answer (for Open Raw JSON, the tooltip's messages and the reconfirm link)
// in VS Code's globalState, rewritten at each change. The service's answer is read up to 16 MiB, and the reader
// passes unknown fields through: kept whole, 200 workflows could make a state of gigabytes. An answer over
// MAX_KEPT_ENVELOPE_BYTES is kept as its known fields, each cut short, with a note saying so.
import type { ServiceMessage } from '../http/bodyKind';
import type { WorkflowEnvelope } from './workflowTypes';

/** An answer this long (as JSON) or shorter is kept whole: far more than any envelope the spec shows. */
export const MAX_KEPT_ENVELOPE_BYTES = 16 * 1024;
const MAX_FIELD_CHARS = 512;
const MAX_MESSAGES = 5;
const MAX_LINK_CHARS = 2048;

/** The key of the note a cut answer carries: Open Raw JSON shows it first. */
export const CUT_NOTE_KEY = 'keptByTheToolkit';

const cut = (v: unknown): string | undefined =>
  typeof v === 'string' ? (v.length > MAX_FIELD_CHARS ? `${v.slice(0, MAX_FIELD_CHARS)}…` : v) : undefined;

const isShort = (v: unknown): v is string => typeof v === 'string' && v.length <= MAX_LINK_CHARS;

/** The envelope as it may be kept: itself when small; otherwise its known fields, cut short, under a note. */
export function boundedEnvelope(envelope: WorkflowEnvelope): WorkflowEnvelope {
  const bytes = Buffer.byteLength(JSON.stringify(envelope));
  if (bytes <= MAX_KEPT_ENVELOPE_BYTES) return envelope;
  const w = envelope.workflow;
  const messages: ServiceMessage[] | undefined = Array.isArray(envelope.messages)
    ? envelope.messages.slice(0, MAX_MESSAGES).map((m) => ({
        code: cut(m?.code) ?? '',
        ...(m?.text !== undefined ? { text: cut(m.text) } : {}),
        ...(m?.timestamp !== undefined ? { timestamp: cut(m.timestamp) } : {}),
      }))
    : undefined;
  const links = envelope.links;
  return {
    [CUT_NOTE_KEY]: `The service answered ${bytes} bytes; the explorer keeps at most ${MAX_KEPT_ENVELOPE_BYTES}, so only the fields below are kept, descriptions cut to ${MAX_FIELD_CHARS} characters. Refresh shows the status; read the workflow with \`wfs status\` for the whole answer.`,
    // Ids are kept exact (the reader refuses long ones): a cut id would name another workflow.
    workflow: {
      workflowId: w.workflowId,
      runId: w.runId,
      status: w.status,
      sessionId: w.sessionId,
      ...(w.correlationId !== undefined ? { correlationId: w.correlationId } : {}),
      product: { service: cut(w.product?.service) ?? '', model: cut(w.product?.model) ?? '' },
      productType: cut(w.productType) ?? '',
      productName: cut(w.productName) ?? '',
      ...(typeof w.reconfirmAvailable === 'boolean' ? { reconfirmAvailable: w.reconfirmAvailable } : {}),
    },
    ...(messages ? { messages } : {}),
    // A cut link would be a wrong one: links are kept whole when short, or not at all (reconfirm then uses the id).
    ...(isShort(links?.self?.href) && isShort(links?.reconfirm?.href) && isShort(links?.reconfirm?.method)
      ? {
          links: {
            self: { href: links!.self.href },
            reconfirm: { href: links!.reconfirm.href, method: links!.reconfirm.method },
          },
        }
      : {}),
  } as WorkflowEnvelope;
}

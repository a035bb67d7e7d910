// The receiver task's terminal lines, and the shapes its problem matcher (package.json, "wfs-receiver") reads. Pure:
// unit-tested in plain Node. A forwarded delivery is one background cycle: its begin line names the delivery's
// topic as the problem's "file" (so a later delivery of that topic replaces its problems, and a success clears them),
// each failed target is a problem, and an end line delivers them to the Problems view.
import { type DeliveryRecord, forwardFailed, forwardLine, forwardsOf } from '../../core/webhooks';
import { terminalSafe } from '../../core/presentation';

/** One line as the task's terminal gets it: a topic, a detail or an app's answer may carry a stranger's controls, so
 * every one is written as a visible escape (terminalSafe); line feeds become the CR LF a terminal needs. */
export function terminalLine(text: string): string {
  return terminalSafe(text).replace(/\n/g, '\r\n') + '\r\n';
}

export const TASK_STARTING = 'wfs: starting the webhook receiver…';
export const taskReady = (url: string) => `wfs: receiver ready at ${url}`;

/** Where a delivery's problems are filed: `webhook/<signed topic>`. */
function problemFile(r: DeliveryRecord): string {
  return `webhook/${r.topic ? r.topic.replace(/\s/g, '_') : 'no-signed-topic'}`;
}

export function deliveryLines(r: DeliveryRecord): string[] {
  const what = r.verified ? (r.duplicate ? 'verified, duplicate' : 'verified') : 'refused';
  const topic = r.topic ?? (r.unsigned?.topic ? `${r.unsigned.topic} (unsigned)` : '(no topic)');
  const head = `${r.receivedAt.slice(11, 19)}  ${r.status} ${what}  ${topic}${r.webhookId ? `  ${r.webhookId}` : ''}`;
  const forwards = forwardsOf(r);
  if (forwards.length === 0) return [head, ...(r.note ? [`  ${r.note}`] : [])];
  const file = problemFile(r);
  return [
    `wfs: delivery ${r.id} ${file}`,
    head,
    ...forwards.map((f) => (forwardFailed(f) ? `${file}: ${forwardLine(f)}` : `  ${forwardLine(f)}`)),
    ...(r.note ? [`  ${r.note}`] : []),
    `wfs: end of delivery ${r.id}`,
  ];
}

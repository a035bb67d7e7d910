// `wfs listen`'s lines about its public address: whether the path from it to the receiver carries deliveries
// ({"event":"public-path",…}), and a warning when a tunnel came back under another name. The fields are the CLI's
// promise (docs/cli.md).
import type { PublicPathChange, ReceiverSession } from '../../core/receiver';
import { MISSED_DELIVERIES, WHAT_TO_DO } from '../../core/tunnel';
import type { CliIO } from '../output';

const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());

export function renderPublicPath(session: ReceiverSession, emit: CliIO['emit']): void {
  session.on('public-path', (change) => emit(publicPathLine(change)));
  session.on('public-address-changed', ({ from, to, message }) =>
    emit({ event: 'warning', kind: 'public-address-changed', from, to, message }),
  );
}

/** One change of the public path as its JSON line: what happened, and when it stopped, what to do. */
function publicPathLine(c: PublicPathChange): Record<string, unknown> {
  const base = { event: 'public-path', state: c.state, at: iso(c.at), publicUrl: c.publicUrl };
  if (c.state === 'checking')
    return {
      ...base,
      reason: c.reason,
      sleptMs: c.sleptMs,
      message: `the machine woke after ${Math.round(c.sleptMs / 1000)} s asleep: checking the public address now`,
    };
  const r = c.result;
  if (c.state === 'not-reaching')
    return {
      ...base,
      failedHop: r.failedHop ?? null,
      status: r.status ?? null,
      detail: r.detail,
      lastReachedAt: iso(c.lastReachedAt),
      message: `the public address ${c.publicUrl} is not reaching the receiver: deliveries sent to it now do not arrive`,
      meanwhile: MISSED_DELIVERIES,
      whatToDo: WHAT_TO_DO,
    };
  const again = c.downMs !== undefined;
  return {
    ...base,
    roundTripMs: r.roundTripMs ?? null,
    detail: r.detail,
    downMs: c.downMs ?? null,
    message: again
      ? `the public address ${c.publicUrl} is reaching the receiver again, after ${Math.round(c.downMs! / 1000)} s`
      : `the public address ${c.publicUrl} reaches the receiver: a check went ${r.detail}`,
    ...(again ? { meanwhile: MISSED_DELIVERIES, whatToDo: WHAT_TO_DO } : {}),
  };
}

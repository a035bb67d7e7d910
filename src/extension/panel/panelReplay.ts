// The panel's replay: a verified delivery's recorded body and event headers, signed anew by the sandbox (optionally
// under a new webhookId), sent to the receiver or the app, and its result in words.
import * as vscode from 'vscode';
import { forwardableHeaders, httpRequest, isLoopbackHost, type TargetTls, targetDispatcher } from '../../core/http';
import { answerExcerpt, appAcknowledged, type DeliveryRecord } from '../../core/webhooks';
import { replayWithFreshId } from '../../core/fixtures';
import { WaitsForTrust } from '../trust/restrictedMode';
import type { Services } from '../services';

/** What a replay came to: the app's status and the start of its answer; the webhookId it was sent under. */
export interface ReplayResult {
  status: number;
  webhookId?: string;
  answer?: string;
  /** The app already answered 2xx for this webhookId (core's appAcknowledged): it may have skipped this replay. */
  mayBeDuplicate: boolean;
}

const answerPart = (answer: string | undefined) => (answer === undefined ? {} : { answer });

/** A replay's result in words, as the panel's status line and the output log say it. */
function replayText(url: string, r: ReplayResult, fresh: boolean): string {
  const parts = [
    fresh && r.webhookId
      ? vscode.l10n.t('Replayed under the new webhookId {0} to {1}: {2}.', r.webhookId, url, r.status)
      : vscode.l10n.t('Replayed to {0}: {1}.', url, r.status),
  ];
  if (r.answer !== undefined) parts.push(vscode.l10n.t('It answered: {0}', r.answer));
  if (r.mayBeDuplicate && r.webhookId)
    parts.push(
      vscode.l10n.t(
        'Your app already answered 2xx for webhookId {0}: an app that dedupes on webhookId, as the spec asks, may have treated this replay as a duplicate and skipped its handler. To run the handler again, use Replay with New Id.',
        r.webhookId,
      ),
    );
  return parts.join(' ');
}

/** The delivery's body as recorded, whole: a refused one kept only in part cannot be replayed or copied. */
export async function recordedBody(s: Services, r: DeliveryRecord): Promise<Buffer> {
  const body = await s.receiver.deliveries.body(r.id);
  if (!body) throw new Error(vscode.l10n.t('That delivery is no longer in the history.'));
  if (r.body.kept < r.body.size)
    throw new Error(
      vscode.l10n.t(
        'Only the first {0} of its {1} bytes were kept (it was refused), so it cannot be replayed or copied whole.',
        r.body.kept,
        r.body.size,
      ),
    );
  return body;
}

/** The same body and event headers, with a fresh sandbox token (the original token is never stored); with `fresh`,
 * under a new webhookId (core's replayWithFreshId: that value of the body only, signed anew). Only for a verified
 * delivery: re-signing a refused one would turn a stranger's body into one that verifies. `tls`: the forward rule's
 * `ca` or `insecure` for that target. */
export async function replayDelivery(
  s: Services,
  r: DeliveryRecord,
  url: string,
  { fresh = false, tls }: { fresh?: boolean; tls?: TargetTls },
): Promise<{ result: ReplayResult; text: string }> {
  if (!r.verified)
    throw new Error(
      vscode.l10n.t(
        'This delivery was refused, so it is not replayed with a fresh signature: that would make a body nobody trusted verify. Copy it as curl or export it instead.',
      ),
    );
  const host = new URL(url).hostname;
  if (!isLoopbackHost(host) && !vscode.workspace.isTrusted)
    throw new WaitsForTrust(vscode.l10n.t('Replaying a delivery to {0}', host));
  const recorded = await recordedBody(s, r);
  if (!s.sandbox.info)
    throw new Error(vscode.l10n.t('Replaying needs the sandbox running: it signs the replayed delivery.'));
  // The recorded headers, minus what belonged to the old connection (a redacted Proxy-Authorization among them).
  const same = { body: recorded, headers: forwardableHeaders(r.headers), webhookId: r.webhookId };
  const sent = fresh ? replayWithFreshId(recorded, same.headers) : same;
  if (!sent)
    throw new Error(
      vscode.l10n.t('Its body has no webhookId to make new: use Replay to Receiver or Replay to Forward Target.'),
    );
  // Decided before sending: an app that already acknowledged this webhookId may skip the replay as a duplicate.
  const mayBeDuplicate =
    !fresh &&
    !!r.webhookId &&
    appAcknowledged(s.receiver.deliveries.all(), r.webhookId, s.receiver.deliveries.replayAnswers());
  // This window's receiver trusts the exact token signed here, once; an app is told what it must trust.
  const { token, done } = await s.signing.signFor(url, sent.body);
  const dispatcher = await targetDispatcher(tls);
  const res = await httpRequest({
    method: 'POST',
    url,
    headers: { ...sent.headers, authorization: `Bearer ${token}` },
    body: sent.body,
    timeoutMs: 10_000,
    maxResponseBytes: 64 * 1024,
    ...(dispatcher ? { dispatcher } : {}),
  }).finally(() => {
    done();
    void dispatcher?.destroy().catch(() => undefined);
  });
  s.signing.answered(url, res.status);
  // Sent to the receiver, the replay is a delivery of its own, and its forwards hold the app's answer.
  if (url !== s.receiver.info?.localUrl)
    s.receiver.replayAnswered({
      at: new Date(s.clock.now()).toISOString(),
      target: url,
      ...(sent.webhookId ? { webhookId: sent.webhookId } : {}),
      deliveryId: r.id,
      status: res.status,
    });
  const result: ReplayResult = {
    status: res.status,
    ...(sent.webhookId ? { webhookId: sent.webhookId } : {}),
    ...answerPart(answerExcerpt(res.body, [token, `Bearer ${token}`])),
    mayBeDuplicate,
  };
  // The log names where and what, not the app's answer (it may hold what the app echoes).
  s.output.info(
    fresh
      ? vscode.l10n.t(
          'Replayed delivery {0} under the new webhookId {1} to {2}: {3}',
          r.id,
          sent.webhookId ?? '',
          url,
          res.status,
        )
      : vscode.l10n.t('Replayed delivery {0} to {1}: {2}', r.id, url, res.status),
  );
  const text = replayText(url, result, fresh);
  vscode.window.setStatusBarMessage(vscode.l10n.t('Replayed to {0}: {1}', url, res.status), 4000);
  return { result, text };
}

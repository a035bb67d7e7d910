// `wfs listen`: the webhook receiver (and tunnel), headless. One JSON line per delivery and tunnel state change.
import { readFileSync } from 'node:fs';
import { DeliveryLog, type DeliveryRecord } from '../../core/webhooks/DeliveryLog';
import { DEFAULT_MAX_BODY, Receiver } from '../../core/webhooks/Receiver';
import { Verifier, type TrustedIssuer } from '../../core/webhooks/Verifier';
import { Tunnel, type TunnelState } from '../../core/tunnel/Tunnel';
import { intFlag, parseFlags, UsageError } from '../flags';
import type { CliIO } from '../output';

export function readTrustFile(file: string): TrustedIssuer[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UsageError(`--trust-file ${file}: ${(err as Error).message}`);
  }
  if (!Array.isArray(parsed) || parsed.length === 0) throw new UsageError(`--trust-file ${file}: expected a non-empty JSON array of {issuer, jwksUrl, audience}`);
  return parsed.map((e, i) => {
    const o = e as Record<string, unknown>;
    for (const k of ['issuer', 'jwksUrl', 'audience']) if (typeof o?.[k] !== 'string' || !o[k]) throw new UsageError(`--trust-file ${file}: entry ${i} lacks a string "${k}"`);
    if (!/^https?:\/\//.test(o.jwksUrl as string)) throw new UsageError(`--trust-file ${file}: entry ${i}: jwksUrl must be an http(s) URL`);
    return { issuer: o.issuer as string, jwksUrl: o.jwksUrl as string, audience: o.audience as string };
  });
}

export async function listenCommand(argv: string[], io: CliIO): Promise<number> {
  const { emit } = io;
  const flags = parseFlags(argv, {
    values: ['host', 'port', 'path', 'trust-file', 'tunnel-host', 'subdomain', 'forward-to', 'respond', 'max-body', 'log'],
    switches: ['no-tunnel'],
  });
  const trustFile = flags.values.get('trust-file');
  if (!trustFile) throw new UsageError('--trust-file is required: a JSON array of {issuer, jwksUrl, audience}');
  const issuers = readTrustFile(trustFile);
  const host = flags.values.get('host') ?? '127.0.0.1';
  if (!['127.0.0.1', 'localhost', '::1'].includes(host) && !/^127\./.test(host)) throw new UsageError('--host must be a loopback address: the public side is the tunnel');
  const path = flags.values.get('path') ?? '/webhooks';
  if (!path.startsWith('/')) throw new UsageError('--path must start with /');
  if (flags.switches.has('no-tunnel') && (flags.values.has('tunnel-host') || flags.values.has('subdomain'))) throw new UsageError('--no-tunnel excludes --tunnel-host and --subdomain');
  const forwardTo = flags.values.get('forward-to');
  if (forwardTo && !/^https?:\/\//.test(forwardTo)) throw new UsageError('--forward-to must be an http(s) URL');

  const log = new DeliveryLog(1000, flags.values.get('log'));
  await log.load();
  log.on('error-persisting', (err: Error) => emit({ event: 'warning', message: `the delivery log could not be written: ${err.message}` }));
  const receiver = new Receiver({
    verifier: new Verifier({ issuers, clock: io.clock }),
    clock: io.clock,
    host,
    port: intFlag(flags, 'port', 0, 65535) ?? 0,
    path,
    maxBodyBytes: intFlag(flags, 'max-body', 1, 100 * 1024 * 1024) ?? DEFAULT_MAX_BODY,
    respondWith: intFlag(flags, 'respond', 200, 599),
    forwardTo,
    log,
  });
  receiver.on('delivery', (r: DeliveryRecord) =>
    emit({ event: 'delivery', status: r.status, verified: r.verified, duplicate: r.duplicate, webhookId: r.webhookId ?? null, topic: r.topic ?? null, checks: r.checks }),
  );
  const url = await receiver.start();
  let tunnel: Tunnel | undefined;
  let publicUrl: string | null = null;
  try {
    if (!flags.switches.has('no-tunnel')) {
      tunnel = new Tunnel({ localPort: Number(new URL(url).port), host: flags.values.get('tunnel-host'), subdomain: flags.values.get('subdomain'), clock: io.clock });
      tunnel.on('state', (state: TunnelState) => emit({ event: 'tunnel', state, publicUrl: tunnel?.publicUrl ?? null }));
      tunnel.on('warning', (err: Error) => emit({ event: 'warning', message: err.message }));
      publicUrl = (await tunnel.open()) + path;
    }
  } catch (err) {
    await receiver.stop();
    throw err;
  }
  emit({ event: 'ready', url, publicUrl });
  await new Promise<void>((resolve) => io.onStop(resolve));
  tunnel?.close();
  await receiver.stop();
  emit({ event: 'stopped' });
  return 0;
}

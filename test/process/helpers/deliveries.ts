// Deliveries for `wfs listen` tests: bodies signed by a running `wfs sandbox`, sent as the service sends them, and
// the history file read back record by record.
import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { rawRequest } from '../../unit/helpers/rawHttp';
import { sandboxSecretFor } from './wfsProcess';

export interface SignedDelivery {
  id: string;
  body: Buffer;
  token: string;
}

/** n bodies with webhookIds `<tag>0000000…` upwards and `pad` bytes of padding, each signed by the sandbox at
 * baseUrl (its /sandbox/sign takes up to 1 MiB of JSON: about 700 KB of body). */
export async function signedDeliveries(
  baseUrl: string,
  n: number,
  opts: { topic: string; pad: number; tag?: string },
): Promise<SignedDelivery[]> {
  const tag = opts.tag ?? '';
  const out: SignedDelivery[] = [];
  for (let i = 0; i < n; i++) {
    const id = `${tag}${String(i).padStart(8 - tag.length, '0')}-0000-4000-8000-000000000000`;
    const body = Buffer.from(
      JSON.stringify({ webhookId: id, topic: opts.topic, data: { i, pad: 'x'.repeat(opts.pad) } }),
    );
    out.push({ id, body, token: await signedBy(baseUrl, body) });
  }
  return out;
}

/** A token for body, signed by the sandbox at baseUrl (one this suite started: its secret is known) as the service
 * signs each attempt anew: without the mark of a token signed on request (wfs_signed_here), which a receiver keeps
 * out of its duplicate set. */
export async function signedBy(baseUrl: string, body: Buffer): Promise<string> {
  const res = await rawRequest(`${baseUrl}/sandbox/sign`, {
    json: { bodyBase64: body.toString('base64'), claims: { wfs_signed_here: null } },
    headers: { 'x-sandbox-secret': sandboxSecretFor(baseUrl) },
  });
  if (res.status !== 200) throw new Error(`the sandbox refused to sign: ${res.status} ${res.text}`);
  return res.json().token as string;
}

/** Posts a delivery with its bearer token; resolves with the status answered. */
export async function sendDelivery(url: string, d: Pick<SignedDelivery, 'body' | 'token'>): Promise<number> {
  const res = await request(url, {
    method: 'POST',
    body: d.body,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${d.token}` },
  });
  await res.body.dump();
  return res.statusCode;
}

/** The history file's records, in order, and the webhookIds kept for records it dropped (the line compaction writes
 * first); lines that do not parse are counted. */
export function recordsIn(file: string): {
  records: { id: string; webhookId?: string; verified: boolean }[];
  acknowledged: string[];
  unreadable: number;
} {
  const records = [];
  let acknowledged: string[] = [];
  let unreadable = 0;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    try {
      const parsed = JSON.parse(line);
      if (Array.isArray(parsed.acknowledged)) acknowledged = parsed.acknowledged;
      else records.push(parsed);
    } catch {
      unreadable++;
    }
  }
  return { records, acknowledged, unreadable };
}

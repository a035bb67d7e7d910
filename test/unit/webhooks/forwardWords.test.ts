// Why an app's answer is missing (a TLS failure named with its fix, a timeout, a refused connection) is core's Said
// beside its English: the CLI and the JSON keep the English; the panel and the tree word it in the user's language.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { english } from '../../../src/core/presentation/said';
import { namedTlsFailure } from '../../../src/core/http/tlsFailure';
import { sendDelivery } from '../../../src/core/http/sendDelivery';
import type { DeliveryRecord } from '../../../src/core/webhooks/deliveryRecord';
import { deliveryDetail } from '../../../src/extension/panel/deliveryView';
import { ForwardRuleError, parseForwardRules, withCaFiles } from '../../../src/core/webhooks/forwardRules';
import { SaidError } from '../../../src/core/presentation/said';
import { englishLeft, pseudoWords } from '../helpers/pseudoWording';
import { plainLetters } from '../l10n/pseudoLocale';

const err = (code: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(code), { code, ...extra });
const TARGET = 'https://localhost:3443/webhooks?token=secret';
const CODES = [
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
];

describe("l10n: why an app's answer is missing", () => {
  it('every TLS failure, for every remedy, is a Said with no English of ours in the pseudo-locale', () => {
    for (const code of CODES)
      for (const remedy of ['rule', 'environment', { flag: '--forward-ca' }] as const)
        for (const extra of [{}, { cert: { subjectaltname: 'DNS:example.test' } }])
          for (const caFile of [undefined, '/etc/ca.pem']) {
            const named = namedTlsFailure(err(code, extra), TARGET, { remedy, ...(caFile ? { caFile } : {}) })!;
            assert.equal(named.message, english(named.said));
            assert.equal(englishLeft(named.said), '', named.message);
          }
  });

  it('a refused connection: the English the CLI prints, and a Said the panel words', async () => {
    // A port that was free a moment ago: nothing listens there now.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const a = await sendDelivery({ url: `http://127.0.0.1:${port}/hooks`, body: '{}', timeoutMs: 2000 });
    assert.equal(a.error, `cannot reach http://127.0.0.1:${port}/hooks: ECONNREFUSED`);
    assert.equal(a.error, english(a.errorSaid!));
    assert.equal(englishLeft(a.errorSaid!), '');
    const record = {
      id: 'd1',
      receivedAt: '2026-11-22T10:00:01.000Z',
      method: 'POST',
      path: '/webhooks',
      headers: {},
      body: { size: 2, sha256: 'ab', kept: 2, utf8: true },
      status: 502,
      verified: true,
      duplicate: false,
      durationMs: 3,
      checks: [],
      forwards: [{ target: a.target, rules: [], latencyMs: 1, error: a.error, errorSaid: a.errorSaid }],
    } as unknown as DeliveryRecord;
    const shown = deliveryDetail(record, Buffer.from('{}'), pseudoWords()).forwards[0]!.error!;
    assert.equal(
      plainLetters(shown.split(`http://127.0.0.1:${port}/hooks`).join(' ').replace('ECONNREFUSED', ' ')),
      '',
    );
    // A record written before the Said was kept shows its English.
    const older = { ...record, forwards: [{ target: a.target, rules: [], latencyMs: 1, error: a.error }] };
    assert.equal(deliveryDetail(older, Buffer.from('{}'), pseudoWords()).forwards[0]!.error, a.error);
  });

  it("a forward rule the receiver cannot use is a Said naming the rule: the setting's error in the user's language", () => {
    const refusal = (f: () => unknown): ForwardRuleError => {
      try {
        f();
      } catch (e) {
        assert.ok(e instanceof ForwardRuleError && e instanceof SaidError, String(e));
        return e;
      }
      throw new Error('accepted');
    };
    const url = 'http://localhost:3000/hooks';
    const bad: unknown[] = [
      'not an object',
      { topic: 'a/*' },
      { topic: 3, url },
      { topic: 'a/[x]', url },
      { topic: 'a/***', url },
      { topic: 'a/*', subTopic: 4, url },
      { topic: 'a/*', url, headers: [] },
      { topic: 'a/*', url, headers: { 'bad name': 'x' } },
      { topic: 'a/*', url, headers: { Authorization: 'x' } },
      { topic: 'a/*', url, headers: { 'x-a': 'two\nlines' } },
      { topic: 'a/*', url, timeoutMs: 0 },
    ];
    for (const input of bad) {
      const e = refusal(() => parseForwardRules([input], 'wfs.receiver.forward'));
      assert.equal(englishLeft(e.said), '', e.message);
      assert.match(e.message, /^wfs\.receiver\.forward\[0\]/);
    }
    const [rule] = parseForwardRules([{ topic: 'a/*', url: 'https://localhost:3443/hooks', ca: 'ca.pem' }], 'rules');
    const e = refusal(() => withCaFiles([rule!], undefined));
    assert.equal(englishLeft(e.said), '', e.message);
    // The English the CLI and the settings' checks print is unchanged.
    assert.equal(
      refusal(() => parseForwardRules([{ topic: 'a/*', url, timeoutMs: 0 }], 'wfs.receiver.forward')).message,
      'wfs.receiver.forward[0] (a/* → http://localhost:3000/hooks): "timeoutMs" must be a whole number of milliseconds from 1 to 600000',
    );
  });
});

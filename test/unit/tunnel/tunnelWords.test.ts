// The public address's words (Test Public Address, the public path watch, the tunnel's name and its warnings) are
// core's Saids: the English the CLI prints is unchanged, and the extension words them through the bundle.
import assert from 'node:assert/strict';
import { english, said } from '../../../src/core/presentation/said';
import { TransportError, type HttpResponse } from '../../../src/core/http/request';
import { answeredWithoutArrival, hopOfTransportError } from '../../../src/core/tunnel/publicAddressHops';
import { tunnelNameProblem, tunnelNameProblemSaid } from '../../../src/core/tunnel/tunnelName';
import { localhostFallbackWarning, TunnelError } from '../../../src/core/tunnel/Tunnel';
import { addressChangedSaid } from '../../../src/core/tunnel/publicPathAdvice';
import { englishLeft } from '../helpers/pseudoWording';

function answer(status: number, contentType: string, body: string, headers: Record<string, string> = {}): HttpResponse {
  return { status, contentType, headers, body: Buffer.from(body), durationMs: 1 };
}

const URL_ = 'https://abc.loca.lt/webhooks';

describe("l10n: the public address's words", () => {
  it('every hop failure has its detail in English and as a Said with no English of ours in the pseudo-locale', () => {
    const failures = [
      answeredWithoutArrival(answer(511, 'text/html', '<h1>localtunnel reminder</h1>')),
      answeredWithoutArrival(answer(502, 'text/plain', 'bad gateway', { server: 'nginx' })),
      answeredWithoutArrival(answer(502, 'text/plain', 'bad gateway')),
      ...[true, false].map(
        (arrived) => hopOfTransportError(new TransportError('t', 'timeout', URL_), URL_, arrived, 9000).hop,
      ),
      ...['ENOTFOUND', 'CERT_HAS_EXPIRED', 'ECONNREFUSED', 'EWHATEVER'].flatMap((code) =>
        [true, false].map(
          (arrived) => hopOfTransportError(new TransportError('x', 'network', URL_, code), URL_, arrived, 9000).hop,
        ),
      ),
    ];
    for (const f of failures) {
      assert.equal(f.detail, english(f.detailSaid));
      assert.equal(englishLeft(f.detailSaid), '', f.detail);
    }
    assert.equal(
      failures[1]!.detail,
      'something on the way answered 502 (server: nginx), but the request never reached the receiver: the tunnel or proxy does not forward to it',
    );
    assert.equal(failures[5]!.detail, 'the name abc.loca.lt does not resolve (ENOTFOUND)');
  });

  it("the tunnel's name problem: English after its flag for the CLI, a whole sentence naming the setting for the editor", () => {
    assert.equal(
      tunnelNameProblem('A_B'),
      'is not a name a localtunnel server gives ("A_B"): 4 to 63 lower-case letters, digits and hyphens, starting and ending with a letter or digit',
    );
    assert.equal(tunnelNameProblem('my-receiver'), undefined);
    const s = tunnelNameProblemSaid('wfs.receiver.tunnelSubdomain', 'A_B')!;
    assert.equal(englishLeft(s), '');
    assert.match(english(s), /^wfs\.receiver\.tunnelSubdomain is not a name/);
  });

  it("the tunnel's warnings and errors are Saids", async () => {
    const w = await localhostFallbackWarning(async () => ({ family: 6 }), false);
    assert.equal(englishLeft(w!), '');
    const e = new TunnelError(said('the tunnel server {0} answered {1} without JSON', 'https://lt.example', 502));
    assert.equal(e.message, 'the tunnel server https://lt.example answered 502 without JSON');
    assert.equal(englishLeft(e.said), '');
  });

  it("a public address that moved is said in the user's words; its English is the CLI's", () => {
    const s = addressChangedSaid('https://a.loca.lt', 'https://b.loca.lt');
    assert.equal(englishLeft(s), '');
    assert.match(
      english(s),
      /^the public address changed from https:\/\/a\.loca\.lt to https:\/\/b\.loca\.lt: deliveries sent to the old one reach nothing now\. Register https:\/\/b\.loca\.lt with the service wherever https:\/\/a\.loca\.lt was registered/,
    );
  });
});

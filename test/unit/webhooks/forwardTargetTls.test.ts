// The TLS a send outside the receiver's forwarding takes (Send to App, Replay to Forward Target, the assistant's
// replay): the first rule naming the target URL, as the Forwarder picks it, its `ca` read only then; and the TLS of
// one target given by flags (--ca, --forward-ca), checked as a rule's and in the flags' words.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  CaFileError,
  readCaFile,
  targetTlsFrom,
  TlsOptionError,
  tlsOptionsProblem,
} from '../../../src/core/http/targetTls';
import { namedTlsFailure } from '../../../src/core/http/tlsFailure';
import {
  forwardEverything,
  ForwardRuleError,
  forwardTargetTls,
  parseForwardRules,
} from '../../../src/core/webhooks/forwardRules';
import { makeTestCertificates, type TestCertificates } from '../helpers/testCertificates';

const FLAGS = { ca: '--ca', insecure: '--insecure' };

describe('forwardTargetTls: the TLS of the rule for a target URL', function () {
  this.timeout(20_000);
  let certs: TestCertificates;
  before(() => {
    certs = makeTestCertificates();
  });
  after(() => certs.remove());

  it("the first rule naming the URL gives its `ca`, read now from the folder given; its remedy is the rule's", () => {
    const rules = parseForwardRules(
      [
        { topic: 'orders/*', url: 'http://localhost:3000/hooks' },
        { topic: 'payments/*', url: 'https://localhost:3443/hooks', ca: 'rootCA.pem' },
        { topic: '**', url: 'https://localhost:3443/hooks', insecure: true },
      ],
      'wfs.receiver.forward',
    );
    const picked = forwardTargetTls(rules, 'https://localhost:3443/hooks', certs.dir);
    assert.equal(picked.caRemedy, 'rule');
    assert.equal(picked.tls?.caFile, certs.rootCa.cert);
    assert.equal(picked.tls?.caPem, readCaFile(certs.rootCa.cert));
    assert.equal(picked.tls?.insecure, undefined, "the first rule's TLS wins, as the Forwarder's");
    // The same URL written another way (default port, case of the host) is the same target.
    assert.equal(forwardTargetTls(rules, 'https://LOCALHOST:3443/hooks', certs.dir).tls?.caFile, certs.rootCa.cert);
  });

  it('a rule without TLS, or no rule for the URL, gives none; only a rule gives the rule remedy', () => {
    const rules = parseForwardRules(
      [{ url: 'http://localhost:3000/hooks' }, { url: 'https://localhost:3443/in', insecure: true }],
      'wfs.receiver.forward',
    );
    assert.deepEqual(forwardTargetTls(rules, 'http://localhost:3000/hooks', undefined), { caRemedy: 'rule' });
    assert.deepEqual(forwardTargetTls(rules, 'https://localhost:3443/other', undefined), {
      caRemedy: 'environment',
    });
    assert.deepEqual(forwardTargetTls(rules, 'not a url', undefined), { caRemedy: 'environment' });
    assert.deepEqual(forwardTargetTls(rules, 'https://localhost:3443/in', undefined), {
      tls: { insecure: true },
      caRemedy: 'rule',
    });
  });

  it('a `ca` is read only for the rule picked: another rule’s missing file is never opened', () => {
    const rules = parseForwardRules(
      [
        { topic: 'a/*', url: 'https://localhost:1/a', ca: '/no/such/rootCA.pem' },
        { topic: 'b/*', url: 'https://localhost:2/b', ca: certs.rootCa.cert },
      ],
      'wfs.receiver.forward',
    );
    assert.equal(forwardTargetTls(rules, 'https://localhost:2/b', undefined).tls?.caFile, certs.rootCa.cert);
    assert.throws(
      () => forwardTargetTls(rules, 'https://localhost:1/a', undefined),
      (e: unknown) =>
        e instanceof ForwardRuleError &&
        /^a\/\* → https:\/\/localhost:1\/a: cannot read the ca file \/no\/such\/rootCA\.pem \(ENOENT\)$/.test(
          e.message,
        ),
    );
  });

  it('--forward-to as a rule keeps the TLS its flags read, and names --forward-ca as the fix', () => {
    const tls = targetTlsFrom('https://localhost:3443/in', { ca: certs.rootCa.cert }, FLAGS, '/')!;
    const rule = forwardEverything('https://localhost:3443/in', '--forward-to', { tls, caFlag: '--forward-ca' });
    // The file is not read again: it may have gone since the start.
    const gone = forwardEverything('https://localhost:3443/in', '--forward-to', {
      tls: { ...tls, caFile: `${certs.dir}/gone/rootCA.pem` },
      caFlag: '--forward-ca',
    });
    assert.deepEqual(forwardTargetTls([rule], 'https://localhost:3443/in', undefined), {
      tls,
      caRemedy: { flag: '--forward-ca' },
    });
    assert.equal(forwardTargetTls([gone], 'https://localhost:3443/in', undefined).tls?.caPem, tls.caPem);
    const words = namedTlsFailure({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }, 'https://localhost:3443/in', {
      remedy: { flag: '--forward-ca' },
    })!.message;
    assert.match(words, /: give --forward-ca FILE with the root that signed it, or that certificate itself as PEM \(/);
  });
});

describe('targetTlsFrom and tlsOptionsProblem: the TLS of one target given by flags', function () {
  this.timeout(20_000);
  let certs: TestCertificates;
  before(() => {
    certs = makeTestCertificates();
  });
  after(() => certs.remove());

  it('reads the ca (relative to the folder given), or marks insecure on loopback; nothing given is undefined', () => {
    assert.deepEqual(targetTlsFrom('https://localhost:3443/', { ca: 'rootCA.pem' }, FLAGS, certs.dir), {
      caPem: readCaFile(certs.rootCa.cert),
      caFile: certs.rootCa.cert,
    });
    assert.deepEqual(targetTlsFrom('https://127.0.0.1:3443/', { insecure: true }, FLAGS, '/'), { insecure: true });
    assert.equal(targetTlsFrom('https://localhost:3443/', { insecure: false }, FLAGS, '/'), undefined);
    assert.throws(
      () => targetTlsFrom('https://localhost:3443/', { ca: certs.rootCa.key }, FLAGS, '/'),
      (e: unknown) => e instanceof CaFileError && /holds a private key/.test(e.message),
    );
  });

  it("refuses what a rule refuses, in the flags' words", () => {
    const refused = (url: string, o: { ca?: string; insecure?: boolean }) => {
      try {
        targetTlsFrom(url, o, FLAGS, '/');
      } catch (err) {
        assert.ok(err instanceof TlsOptionError);
        return err.message;
      }
      return assert.fail('not refused');
    };
    assert.equal(
      refused('http://localhost:3000/', { ca: 'x.pem' }),
      '--ca applies to an https target only; this one is http://',
    );
    assert.equal(
      refused('https://localhost:3443/', { ca: 'x.pem', insecure: true }),
      '--ca and --insecure exclude each other: with the root in --ca, leave --insecure out',
    );
    assert.equal(
      refused('https://app.example.com/', { insecure: true }),
      '--insecure is allowed for a target on this machine only (localhost, 127.0.0.1, ::1), not app.example.com: give its root certificate in --ca instead',
    );
    assert.equal(
      refused('https://localhost:3443/', { ca: ' ' }),
      '--ca must be the path of a PEM file, e.g. the root mkcert made (rootCA.pem)',
    );
  });

  it('a rule and a flag are refused alike, for any host and options (property)', () => {
    const hosts = ['localhost', '127.0.0.1', '[::1]', 'app.example.com', '10.0.0.2'];
    fc.assert(
      fc.property(
        fc.constantFrom('http', 'https'),
        fc.constantFrom(...hosts),
        fc.option(fc.constantFrom('root.pem', '', 'a\nb'), { nil: undefined }),
        fc.option(fc.boolean(), { nil: undefined }),
        (scheme, host, ca, insecure) => {
          const url = `${scheme}://${host}:3443/in`;
          const flagProblem = tlsOptionsProblem(url, { ca, insecure }, FLAGS);
          let ruleProblem: string | undefined;
          try {
            parseForwardRules([{ url, ca, insecure }], 'r');
          } catch (err) {
            ruleProblem = (err as Error).message;
          }
          assert.equal(flagProblem === undefined, ruleProblem === undefined, `${url} ${ca} ${insecure}`);
          if (flagProblem)
            assert.equal(
              ruleProblem!.replace(/^r\[0\] \(.*?\): /, ''),
              flagProblem.replace(/--(ca|insecure)/g, '"$1"'),
            );
        },
      ),
      { numRuns: 200, seed: 1 },
    );
  });
});

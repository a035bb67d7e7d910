// Core's words that VS Code showed in English (a reviewer's list): each is now a Said, worded through the bundle in
// the extension's language (here its pseudo-locale: no English of ours is left once the data is taken out), while
// the English the CLI prints stays as it was.
import assert from 'node:assert/strict';
import { english, said } from '../../../src/core/presentation/said';
import { listenError } from '../../../src/core/http/listenError';
import { httpUrlProblem, httpUrlProblemSaid } from '../../../src/core/http/httpUrlProblem';
import { parseFixture } from '../../../src/core/fixtures/fixtureFormat';
import { AuditRefused, AuditTargetUnreachable, checkTarget } from '../../../src/core/audit/receiverAudit';
import { namedTlsFailure } from '../../../src/core/http/tlsFailure';
import { TransportError } from '../../../src/core/http/request';
import { missingSchemeHint } from '../../../src/core/http/schemeHint';
import { testWebhookOutcome } from '../../../src/core/webhooks/testWebhookOutcome';
import { pseudoWords } from './saidLeft';

const { leftEnglish } = pseudoWords();

describe("l10n: the reviewer's list of core English shown in VS Code", () => {
  it("a test webhook's outcome: every summary is worded, its English unchanged", () => {
    const answers: unknown[] = [
      { receiverStatus: 200 },
      {},
      { error: 'ECONNREFUSED', retryScheduled: true },
      { error: 'ECONNREFUSED' },
      ...[401, 403, 413, 404, 405, 421, 502, 504, 503, 418].flatMap((receiverStatus) => [
        { receiverStatus },
        { receiverStatus, retryScheduled: true },
      ]),
    ];
    const left = answers.flatMap((a) => {
      const o = testWebhookOutcome(a, {});
      assert.equal(o.summary, english(o.summarySaid));
      return leftEnglish(JSON.stringify(a), o.summarySaid);
    });
    assert.deepEqual(left, []);
    assert.equal(
      testWebhookOutcome({ receiverStatus: 504, retryScheduled: true }, {}).summary,
      'your receiver answered 504: it (or a proxy) took the delivery, but what is behind it did not answer in time; the service will try again',
    );
    assert.equal(
      testWebhookOutcome({ error: 'ECONNREFUSED' }, {}).summary,
      'not delivered: the service could not reach the address: ECONNREFUSED',
    );
  });

  it("the receiver's start failure (ListenError) is a SaidError, its English unchanged", () => {
    const errs = ['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL', 'EOTHER'].map((code) =>
      listenError(Object.assign(new Error('listen failed'), { code }), '127.0.0.1', 8080),
    );
    assert.deepEqual(
      errs.flatMap((e, i) => leftEnglish(String(i), e.said)),
      [],
    );
    assert.deepEqual(
      errs.map((e) => [e.message, e.code, e.port]),
      [
        [
          'port 8080 on 127.0.0.1 is already in use by another process: choose another port, or 0 for a free one',
          'EADDRINUSE',
          8080,
        ],
        [
          'port 8080 on 127.0.0.1 needs privileges this process lacks (ports below 1024 usually do): choose one from 1024 up, or 0 for a free one',
          'EACCES',
          8080,
        ],
        ['127.0.0.1 is not an address of this machine', 'EADDRNOTAVAIL', 8080],
        ['cannot listen on 127.0.0.1 port 8080: listen failed', 'EOTHER', 8080],
      ],
    );
  });

  it("the audit's target unreachable and a target without its scheme: Saids, the English unchanged", () => {
    const refusals = ['api.example.com', 'localhost:8080'].map((t) => {
      try {
        checkTarget(t);
      } catch (err) {
        assert.ok(err instanceof AuditRefused);
        return err;
      }
      throw new Error(`${t} was taken`);
    });
    assert.deepEqual(
      refusals.map((e) => e.message),
      [
        '"api.example.com" is not a URL (it lacks its scheme: write https://api.example.com).',
        'The target must be an http(s) URL (it lacks its scheme: write http://localhost:8080).',
      ],
    );
    assert.equal(missingSchemeHint('localhost:8080'), ' (it lacks its scheme: write http://localhost:8080)');
    const transport = new TransportError('connect ECONNREFUSED 127.0.0.1:9', 'network', 'http://127.0.0.1:9/', 'E');
    const tls = namedTlsFailure(
      Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }),
      'https://127.0.0.1:8443/webhooks',
      { remedy: 'environment', who: said('your receiver') },
    )!;
    assert.match(tls.message, /^your receiver at https:\/\/127\.0\.0\.1:8443 /);
    const unreachable = [
      new AuditTargetUnreachable('http://127.0.0.1:9/', 'E', transport.said),
      new AuditTargetUnreachable('https://127.0.0.1:8443/webhooks', tls.code, tls.said, tls.problem),
    ];
    assert.equal(unreachable[1]!.message, tls.message);
    assert.deepEqual(
      [...refusals, ...unreachable].flatMap((e, i) => leftEnglish(String(i), e.said)),
      [],
    );
  });

  it("a fixture's problems (fields and JSON syntax) are Saids, their English unchanged", () => {
    const fields = parseFixture(
      JSON.stringify({
        wfsFixture: 2,
        nope: 1,
        topic: '',
        subTopic: 'a\nb',
        webhookId: 'x',
        triggeredAt: 'y',
        headers: { 'x-a': 1, 'bad name': 'v', 'x-b': 'a\nb', 'content-length': '1', 'x-svc-topic': 't' },
        contentType: '',
        body: {},
        bodyText: 'also',
        expect: { status: 7 },
        derivedFrom: 1,
        description: 2,
      }),
    );
    const more = [
      '{}',
      '{"body": 1, "bodyText": 2}',
      '{"bodyText": 2, "expect": []}',
      '{"expect": {"x": 1}}',
      '{"headers": []}',
      '[]',
      '{"a": 1,}',
      "{'a': 1}",
      '{"a": 1 "b": 2}',
      '{"a" 1}',
      '{"a": "\\x"}',
      '{"a": "b',
      '{"a": 1} x',
      '{1: 2}',
      '{"a": [1,]}',
      '{"a": "\n"}',
      `{"a": 'b'}`,
      '{"a": -}',
    ].map((t) => parseFixture(t));
    const problems = [fields, ...more].flatMap((p) => (p.ok ? [] : p.problems));
    assert.ok(problems.length >= 35, String(problems.length));
    const left = problems.flatMap((p, i) => {
      assert.ok(p.messageSaid, p.message);
      assert.equal(p.message, english(p.messageSaid));
      return leftEnglish(`${i} ${p.message}`, p.messageSaid);
    });
    assert.deepEqual(left, []);
    const messages = problems.map((p) => p.message);
    for (const m of [
      '"wfsFixture" must be 1',
      '"nope" is not a fixture field',
      '"topic" must be a non-empty string: the event topic, e.g. "workflow/completed"',
      '"triggeredAt" must be a UTC time with 7 fractional digits (2026-01-15T12:00:00.1234567Z), or "{{now}}"',
      '"expect" must be an object, e.g. { "status": 200 }',
      'a trailing comma before "}" at line 1, column 9',
      'unexpected "\'" (JSON strings take double quotes) at line 1, column 7',
      'unexpected "-" at line 1, column 7',
    ])
      assert.ok(messages.includes(m), `${m}\n${messages.join('\n')}`);
  });

  it('an address that is not an http(s) URL: a Said, the English unchanged', () => {
    const cases: [string, string | undefined, string][] = [
      [
        'api.example.com',
        undefined,
        'is not a URL: api.example.com (it lacks its scheme: write https://api.example.com)',
      ],
      ['::', undefined, 'is not a URL: ::'],
      ['localhost:8080', undefined, 'must be an http(s) URL (it lacks its scheme: write http://localhost:8080)'],
      ['ftp://x.example', undefined, 'must be an http(s) URL'],
      ['ftp://x.example', 'the receiver URL', 'must be the receiver URL'],
      ['https://alice:pw@x.example/h', undefined, 'holds a user name or password (https://…@x.example/h): an address'],
    ];
    const left = cases.flatMap(([value, what, english0]) => {
      const s = httpUrlProblemSaid(value, what)!;
      const e = httpUrlProblem(value, what)!;
      assert.ok(e.startsWith(english0), e);
      assert.equal(e, english(s));
      assert.ok(!e.includes('pw'), e);
      return leftEnglish(value, what === undefined ? s : { ...s, values: s.values?.filter((v) => v !== what) });
    });
    assert.deepEqual(left, []);
    assert.equal(httpUrlProblemSaid('https://x.example/h'), undefined);
  });
});

// `wfs send FILE|DIR… --to URL`: replays the repository's webhook fixtures (NAME.webhook.json) against a receiver or
// an app, each signed over its exact bytes with a sandbox's key, and fails when an answer is not what the fixture
// expects. This is how a CI job replays them.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SandboxControlClient } from '../../core/sandbox/sandboxControlClient';
import { FIXTURE_SUFFIX, parseFixture, resolveFixture } from '../../core/fixtures/fixtureFormat';
import { fixtureFromEvent, looksLikeFixture, type EventFields } from '../../core/fixtures/plainEvent';
import { sendResolvedFixture, type BodySigner } from '../../core/fixtures/sendFixture';
import { isLoopbackHost } from '../../core/http/loopback';
import { Sandbox } from '../../core/sandbox/Sandbox';
import { MAX_STDIN_BYTES, readBoundedText } from '../boundedRead';
import type { CommandSpec } from '../commandSpec';
import { durationFlag, intFlag, requiredFlag, UsageError } from '../flags';
import { httpUrlValue } from '../httpUrlValue';
import { sandboxSecretFromEnv, sandboxSecretHelp } from '../sandboxSecret';

export const sendCommand: CommandSpec = {
  name: 'send',
  synopsis:
    'send FILE|DIR… --to URL [--topic T --sub-topic S [--tenant-id T]] [--sandbox-url URL | --sandbox-port P] [--allow-remote] [--timeout DURATION]',
  positionals: [
    'FILE|DIR…',
    `fixture files, or folders whose *${FIXTURE_SUFFIX} files are sent (sorted, recursive); or plain event bodies (JSON files without "wfsFixture")`,
  ],
  description: [
    'Sends each webhook fixture to --to, signed with a sandbox key over its exact body bytes (a fresh exp and',
    'body_sha256), with a fresh webhookId and triggeredAt unless the fixture fixes them. The key is a running',
    "sandbox's (--sandbox-url), or one started here (--sandbox-port; your app must trust its issuer and jwksUrl,",
    'printed first). Prints each answer: text on a terminal, one JSON line per fixture when piped',
    '({"event":"fixture-sent","file","index","total","to","status","expected","passed","latencyMs","webhookId",',
    '"bodyBytes","answer"}), then {"event":"send-summary",…}. Stops at the first fixture the target does not answer',
    '(unreachable, or no answer within --timeout), and says how long it waited.',
    'A plain event body (a JSON file without "wfsFixture", or any file with --topic) is sent as its exact bytes, with',
    'X-Svc-Topic, -Sub-Topic and -Tenant-Id from --topic, --sub-topic and --tenant-id, else from its own "topic",',
    '"subTopic" and "tenantId"; its webhookId and triggeredAt when it has them. `wfs fixture new` makes a fixture of one.',
    '"expected" is the status the fixture expects (a number, a list of them, or "2xx"). The summary counts "passed",',
    '"failed" (sent, answered otherwise or not at all), "invalid" (not sent: the fixture is invalid) and "notSent" (not',
    'sent: the target stopped answering).',
  ].join('\n'),
  flags: {
    to: {
      type: 'string',
      value: 'URL',
      description: 'where to send: your receiver or app (required)',
      required: true,
    },
    'sandbox-url': {
      type: 'string',
      value: 'URL',
      description: 'a running `wfs sandbox` whose key signs (its secret in WFS_SANDBOX_SECRET)',
    },
    'sandbox-port': {
      type: 'string',
      value: 'P',
      description: 'without --sandbox-url: run one here on this port (default: a free one)',
    },
    topic: { type: 'string', value: 'T', description: 'send the files as plain event bodies with this X-Svc-Topic' },
    'sub-topic': {
      type: 'string',
      value: 'S',
      description: 'with plain event bodies: X-Svc-Sub-Topic (default: the body\'s "subTopic")',
    },
    'tenant-id': {
      type: 'string',
      value: 'T',
      description: 'with plain event bodies: X-Svc-Tenant-Id (default: the body\'s "tenantId")',
    },
    'allow-remote': { type: 'boolean', description: 'allow a --to address off this machine' },
    timeout: {
      type: 'string',
      value: 'DURATION',
      description: 'wait this long for each answer: 500ms to 120s, e.g. 30s (a bare number is seconds; default 10s)',
    },
  },
  env: [sandboxSecretHelp('--sandbox-url')],
  exits: [
    [
      1,
      'an answer was not what its fixture expects (any 2xx unless it says), a fixture is invalid, or the target did not answer',
    ],
  ],
  async run(flags, io) {
    const { emit } = io;
    const to = httpUrlValue('--to', requiredFlag(flags, 'to', 'the URL of your receiver or app'));
    if (!isLoopbackHost(new URL(to).hostname) && !flags.switches.has('allow-remote'))
      throw new UsageError(
        `--to ${new URL(to).host} is not on this machine: add --allow-remote to send signed deliveries there`,
      );
    if (flags.positionals.length === 0)
      throw new UsageError(`name the fixtures to send: files, or folders of *${FIXTURE_SUFFIX} files`);
    const sandboxUrl = flags.values.get('sandbox-url');
    if (sandboxUrl && flags.values.has('sandbox-port')) throw new UsageError('--sandbox-url excludes --sandbox-port');
    if (sandboxUrl) httpUrlValue('--sandbox-url', sandboxUrl, "the sandbox's http(s) baseUrl");
    const timeoutMs = durationFlag(flags, 'timeout', 's', 500, 120_000) ?? 10_000;
    const sandboxPort = intFlag(flags, 'sandbox-port', 0, 65535) ?? 0;
    const given: EventFields = {
      topic: flags.values.get('topic'),
      subTopic: flags.values.get('sub-topic'),
      tenant: flags.values.get('tenant-id'),
    };
    const plainAlways = Object.values(given).some((v) => v !== undefined);
    const files = fixtureFiles(flags.positionals);
    if (files.length === 0) throw new UsageError(`no *${FIXTURE_SUFFIX} files in ${flags.positionals.join(', ')}`);

    let embedded: Sandbox | undefined;
    let sign: BodySigner;
    if (sandboxUrl) {
      const client = new SandboxControlClient(sandboxUrl, sandboxSecretFromEnv(io.env, `--sandbox-url ${sandboxUrl}`));
      sign = async (body) => (await client.sign(body)).token;
    } else {
      embedded = new Sandbox({ port: sandboxPort });
      const info = await embedded.start();
      emit({
        event: 'signing-sandbox',
        baseUrl: info.baseUrl,
        issuer: info.issuer,
        audience: info.audience,
        jwksUrl: info.jwksUrl,
      });
      const signer = embedded.context.signer;
      sign = (body) => signer.sign(body);
    }
    const started = performance.now();
    let passed = 0;
    let failed = 0;
    let invalid = 0;
    let notSent = 0;
    try {
      for (let i = 0; i < files.length; i++) {
        const file = files[i]!;
        const position = { file, index: i + 1, total: files.length };
        let text: string;
        try {
          text = readBoundedText(file, MAX_STDIN_BYTES);
        } catch (err) {
          invalid++;
          emit({
            event: 'fixture-invalid',
            ...position,
            problems: [
              {
                field: '',
                message: `cannot read it: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
              },
            ],
          });
          continue;
        }
        // A plain event body: with --topic (or its siblings) every file is one, else a JSON file not a fixture.
        const plain = plainAlways || !looksLikeFixture(text, file);
        const parsed = plain ? fixtureFromEvent(text, given) : parseFixture(text);
        if (!parsed.ok) {
          invalid++;
          emit({
            event: 'fixture-invalid',
            ...position,
            ...(plain ? { plainEvent: true } : {}),
            problems: parsed.problems.map((p) => ({
              field: p.field,
              message: p.message,
              line: p.start.line,
              column: p.start.column,
            })),
          });
          continue;
        }
        const resolved = resolveFixture(parsed.fixture, io.clock.now());
        const sent = await sendResolvedFixture(resolved, to, sign, { timeoutMs });
        const a = sent.answer;
        if (a.failure) {
          failed++;
          notSent = files.length - i - 1;
          emit({
            event: 'fixture-sent',
            ...position,
            to,
            status: a.status ?? null,
            expected: expectedText(resolved.expect.status),
            passed: false,
            latencyMs: a.latencyMs,
            webhookId: sent.webhookId,
            bodyBytes: sent.bodyBytes,
            error: a.error,
            failure: a.failure,
          });
          emit({
            event: 'error',
            kind: a.failure === 'timeout' ? 'timeout' : 'unreachable',
            message: `${a.error} (waited ${a.latencyMs} ms)${notSent ? `; the other ${notSent} fixture(s) were not sent` : ''}. Check that ${to} is running and reachable, then send again.`,
          });
          break;
        }
        if (sent.expected) passed++;
        else failed++;
        emit({
          event: 'fixture-sent',
          ...position,
          to,
          status: a.status,
          expected: expectedText(resolved.expect.status),
          passed: sent.expected,
          latencyMs: a.latencyMs,
          webhookId: sent.webhookId,
          bodyBytes: sent.bodyBytes,
          answer: a.body?.toString('utf8') ?? '',
          ...(a.truncated ? { answerBytes: a.bodySize } : {}),
          ...(a.redirect ? { redirect: a.redirect } : {}),
        });
      }
    } finally {
      await embedded?.stop();
    }
    emit({
      event: 'send-summary',
      to,
      total: files.length,
      passed,
      failed,
      invalid,
      notSent,
      elapsedMs: Math.round(performance.now() - started),
    });
    return failed === 0 && invalid === 0 && notSent === 0 ? 0 : 1;
  },
};

/** What the fixture expects, as data: a status, a list of them, or "2xx" when it names none. */
function expectedText(status: number[] | undefined): number | number[] | '2xx' {
  return status ? (status.length === 1 ? status[0]! : status) : '2xx';
}

/** The files named, and the fixture files under the folders named, in order; each once. */
export function fixtureFiles(paths: string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && e.name.endsWith(FIXTURE_SUFFIX)) out.push(p);
    }
  };
  for (const p of paths) {
    let st;
    try {
      st = statSync(p);
    } catch (err) {
      throw new UsageError(
        `${p}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or folder' : (err as Error).message}`,
      );
    }
    if (st.isDirectory()) walk(p);
    else out.push(p);
  }
  return [...new Set(out)];
}

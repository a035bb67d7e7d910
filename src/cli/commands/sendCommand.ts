// `wfs send FILE|DIR… --to URL`: replays the repository's webhook fixtures (NAME.webhook.json) against a receiver or
// an app, each signed over its exact bytes with a sandbox's key, and fails when an answer is not what the fixture
// expects. This is how a CI job replays them.
import { EXIT } from '../exitCodes';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  type BodySigner,
  type EventFields,
  FIXTURE_SUFFIX,
  fixtureFromEvent,
  looksLikeFixture,
  parseFixture,
  resolvedWithFreshId,
  resolveFixture,
  sendResolvedFixture,
} from '../../core/fixtures';
import { isLoopbackHost } from '../../core/http';
import { kidOf, matchAdvice, refusalOf, refusalText } from '../../core/audit';
import { MAX_STDIN_BYTES, readBoundedText } from '../boundedRead';
import type { CommandSpec } from '../commandSpec';
import { durationFlag, requiredFlag, UsageError } from '../flags';
import { httpUrlValue } from '../httpUrlValue';
import { announceKey, KEY_ENV, KEY_FLAGS, keySource, openKey, trustAdvice } from '../signingKey';

export const sendCommand: CommandSpec = {
  name: 'send',
  synopsis:
    'send FILE|DIR… --to URL [--topic T --sub-topic S [--tenant-id T]] [--fresh-id] [--sandbox-url URL | --keys DIR | --sandbox-port P] [--allow-remote] [--timeout DURATION]',
  positionals: [
    'FILE|DIR…',
    `fixture files, or folders whose *${FIXTURE_SUFFIX} files are sent (sorted, recursive); or plain event bodies (JSON files without "wfsFixture")`,
  ],
  description: [
    'Sends each webhook fixture to --to, signed over its exact body bytes (a fresh exp and body_sha256), with a',
    'fresh webhookId and triggeredAt unless the fixture fixes them. The key is the sandbox WFS_BASE_URL names (with',
    'WFS_SANDBOX_SECRET), or the one a flag names; without WFS_BASE_URL, a sandbox started here (your app must trust',
    'its issuer and jwksUrl, printed first). Prints each answer: text on a terminal, one JSON line per fixture when',
    'piped ({"event":"fixture-sent","file","index","total","to","status","expected","passed","latencyMs","webhookId",',
    '"bodyBytes","answer"}), then {"event":"send-summary",…}. A refusal at a step that trust decides (issuer, signing',
    'key, signature, audience) is explained once, {"event":"trust-mismatch",…}: the key it signed with, and how to',
    'make them match. Stops at the first fixture the target does not answer (unreachable, or no answer within',
    '--timeout), and says how long it waited.',
  ].join('\n'),
  flags: {
    to: {
      type: 'string',
      value: 'URL',
      description: 'where to send: your receiver or app (required)',
      required: true,
    },
    ...KEY_FLAGS,
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
    'fresh-id': {
      type: 'boolean',
      description:
        "send each under a new webhookId (the body's, changed there only, and the header's), so an app that dedupes runs its handler again",
    },
    'allow-remote': { type: 'boolean', description: 'allow a --to address off this machine' },
    timeout: {
      type: 'string',
      value: 'DURATION',
      description: 'wait this long for each answer: 500ms to 120s, e.g. 30s (a bare number is seconds; default 10s)',
    },
  },
  env: KEY_ENV,
  exits: [
    [
      EXIT.failed,
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
    const source = keySource(flags, io.env, 'send');
    const timeoutMs = durationFlag(flags, 'timeout', 's', 500, 120_000) ?? 10_000;
    const given: EventFields = {
      topic: flags.values.get('topic'),
      subTopic: flags.values.get('sub-topic'),
      tenant: flags.values.get('tenant-id'),
    };
    const plainAlways = Object.values(given).some((v) => v !== undefined);
    const files = fixtureFiles(flags.positionals);
    if (files.length === 0) throw new UsageError(`no *${FIXTURE_SUFFIX} files in ${flags.positionals.join(', ')}`);

    const key = await openKey(source, io.clock);
    announceKey(key, emit);
    let lastToken = '';
    const sign: BodySigner = async (body) => (lastToken = await key.sign(body));
    let mismatchSaid = false;
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
        const same = resolveFixture(parsed.fixture, io.clock.now());
        const resolved = flags.switches.has('fresh-id') ? resolvedWithFreshId(same) : same;
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
        const refusal =
          sent.expected || a.status === undefined
            ? undefined
            : refusalOf(
                { ...key.trust, kid: kidOf(`Bearer ${lastToken}`) },
                { status: a.status, body: a.body?.toString('utf8'), retryAfter: a.headers?.['retry-after'] },
              );
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
        // Said once: every other fixture signed with the same key meets the same refusal.
        if (refusal?.trust && !mismatchSaid) {
          mismatchSaid = true;
          const k = refusal.signedWith;
          emit({
            event: 'trust-mismatch',
            file,
            to,
            issuer: k.issuer,
            audience: k.audience,
            jwksUrl: k.jwksUrl,
            kid: k.kid ?? null,
            status: refusal.status,
            ...(refusal.said ? { answer: refusal.said } : {}),
            ...(refusal.step !== undefined ? { step: refusal.step } : {}),
            ...(refusal.retryAfter ? { retryAfter: refusal.retryAfter } : {}),
            trust: true,
            message: `${refusalText(refusal, file, to)}${refusal.step === undefined ? ' It names no reason: the key may be why.' : ''}`,
            fix: `${matchAdvice(refusal)} ${trustAdvice(source, k)}`,
          });
        }
      }
    } finally {
      await key.stop();
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
    return failed === 0 && invalid === 0 && notSent === 0 ? EXIT.ok : EXIT.failed;
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

// `wfs send FILE|DIR… --to URL`: replays the repository's webhook fixtures (NAME.webhook.json) against a receiver or
// an app, each signed over its exact bytes with a sandbox's key, and fails when an answer is not what the fixture
// expects. This is how a CI job replays them.
import { EXIT } from '../exitCodes';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  type BodySigner,
  type EnvPlaceholders,
  type EventFields,
  type EventOverride,
  type Fixture,
  FIXTURE_SUFFIX,
  fixtureFromEvent,
  type FixtureSent,
  looksLikeFixture,
  parseFixture,
  type ResolvedFixture,
  resolvedWithFreshId,
  resolveFixture,
  sendResolvedFixture,
  withOverrides,
} from '../../core/fixtures';
import { isLoopbackHost, type TargetTls } from '../../core/http';
import { kidOf, matchAdvice, refusalOf, refusalText } from '../../core/audit';
import { MAX_STDIN_BYTES, readBoundedText } from '../boundedRead';
import type { CommandSpec } from '../commandSpec';
import { ALLOW_ENV_FLAG, allowEnvHow, changeProblem, overridesOf, SET_FLAG } from '../eventOverrideFlags';
import { durationFlag, requiredFlag, UsageError, type ParsedFlags } from '../flags';
import { httpUrlValue } from '../httpUrlValue';
import { TARGET_TLS_NAMES, targetTlsFlags, tlsFlagSpecs } from '../targetTlsFlags';
import type { CliIO } from '../output';
import {
  announceKey,
  KEY_ENV,
  KEY_FLAGS,
  keySource,
  openKey,
  trustAdvice,
  type KeySource,
  type OpenKey,
} from '../signingKey';

export const sendCommand: CommandSpec = {
  name: 'send',
  synopsis:
    'send FILE|DIR… --to URL [--ca FILE | --insecure] [--topic T --sub-topic S [--tenant-id T]] [--fresh-id] [--set PATH=VALUE …] [--allow-env NAME …] [--sandbox-url URL | --keys DIR | --sandbox-port P] [--allow-remote] [--timeout DURATION]',
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
    "--timeout), and says how long it waited. A fixture's body fills {{webhookId}}, {{triggeredAt}}, {{uuid}}, {{now}} and",
    "{{env.NAME}} (this shell's variable) inside its strings; then --set changes values. A placeholder that cannot be",
    'filled (an unset variable) or a path a body does not have is refused (exit 2) before anything is sent.',
  ].join('\n'),
  flags: {
    to: {
      type: 'string',
      value: 'URL',
      description: 'where to send: your receiver or app (required)',
      required: true,
    },
    ...tlsFlagSpecs(TARGET_TLS_NAMES, '--to'),
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
    ...SET_FLAG,
    ...ALLOW_ENV_FLAG,
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
    const o = sendOptions(flags, io.env);
    // Every change and placeholder is made once before anything is signed or sent: one that cannot be made
    // (a path the event lacks, an unset variable) stops the run with nothing sent.
    checkChanges(o, io.clock.now());
    const key = await openKey(o.source, io.clock);
    announceKey(key, io.emit);
    const started = performance.now();
    let counts: SendCounts;
    try {
      counts = await sendAll(o, key, io);
    } finally {
      await key.stop();
    }
    io.emit({
      event: 'send-summary',
      to: o.to,
      total: o.files.length,
      ...counts,
      elapsedMs: Math.round(performance.now() - started),
    });
    return counts.failed === 0 && counts.invalid === 0 && counts.notSent === 0 ? EXIT.ok : EXIT.failed;
  },
};

interface SendOptions {
  to: string;
  /** --ca or --insecure: the TLS of the app at --to. */
  tls?: TargetTls;
  source: KeySource;
  timeoutMs: number;
  given: EventFields;
  plainAlways: boolean;
  files: string[];
  freshId: boolean;
  overrides: EventOverride[];
  env: EnvPlaceholders;
}

interface SendCounts {
  passed: number;
  failed: number;
  invalid: number;
  notSent: number;
}

function sendOptions(flags: ParsedFlags, env: NodeJS.ProcessEnv): SendOptions {
  const to = httpUrlValue('--to', requiredFlag(flags, 'to', 'the URL of your receiver or app'));
  if (!isLoopbackHost(new URL(to).hostname) && !flags.switches.has('allow-remote'))
    throw new UsageError(
      `--to ${new URL(to).host} is not on this machine: add --allow-remote to send signed deliveries there`,
    );
  const tls = targetTlsFlags(flags, to, TARGET_TLS_NAMES, '--to');
  if (flags.positionals.length === 0)
    throw new UsageError(`name the fixtures to send: files, or folders of *${FIXTURE_SUFFIX} files`);
  const source = keySource(flags, env, 'send');
  const timeoutMs = durationFlag(flags, 'timeout', 's', 500, 120_000) ?? 10_000;
  const given: EventFields = {
    topic: flags.values.get('topic'),
    subTopic: flags.values.get('sub-topic'),
    tenant: flags.values.get('tenant-id'),
  };
  const overrides = overridesOf(flags);
  const files = fixtureFiles(flags.positionals);
  if (files.length === 0) throw new UsageError(`no *${FIXTURE_SUFFIX} files in ${flags.positionals.join(', ')}`);
  return {
    to,
    ...(tls ? { tls } : {}),
    source,
    timeoutMs,
    given,
    plainAlways: Object.values(given).some((v) => v !== undefined),
    files,
    freshId: flags.switches.has('fresh-id'),
    overrides,
    env: { env, allowEnv: new Set(flags.lists.get('allow-env') ?? []), allowHow: allowEnvHow },
  };
}

type ReadFixture =
  | { ok: true; fixture: Fixture }
  | { ok: false; problems: { field: string; message: string; line?: number; column?: number }[]; plain?: boolean };

/** A file as a fixture: a fixture file, or a plain event body (with --topic or its siblings every file is one, else a
 * JSON file that is not a fixture). */
function readFixture(file: string, o: SendOptions): ReadFixture {
  let text: string;
  try {
    text = readBoundedText(file, MAX_STDIN_BYTES);
  } catch (err) {
    const message = `cannot read it: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`;
    return { ok: false, problems: [{ field: '', message }] };
  }
  const plain = o.plainAlways || !looksLikeFixture(text, file);
  const parsed = plain ? fixtureFromEvent(text, o.given) : parseFixture(text);
  if (parsed.ok) return parsed;
  return {
    ok: false,
    ...(plain ? { plain: true } : {}),
    problems: parsed.problems.map((p) => ({
      field: p.field,
      message: p.message,
      line: p.start.line,
      column: p.start.column,
    })),
  };
}

/** The fixture ready to sign: placeholders filled, a fresh id if asked, then the --set changes (a later one wins,
 * so `--set webhookId=…` is kept over --fresh-id). Throws OverrideError / PlaceholderError. */
function prepared(fixture: Fixture, o: SendOptions, nowMs: number): ResolvedFixture {
  const same = resolveFixture(fixture, nowMs, undefined, undefined, o.env);
  return withOverrides(o.freshId ? resolvedWithFreshId(same) : same, o.overrides);
}

function checkChanges(o: SendOptions, nowMs: number): void {
  const problems: string[] = [];
  for (const file of o.files) {
    const read = readFixture(file, o);
    if (!read.ok) continue; // said when its turn comes, as before
    try {
      prepared(read.fixture, o, nowMs);
    } catch (err) {
      const words = changeProblem(err);
      if (words === undefined) throw err;
      problems.push(`${file}: ${words}`);
    }
  }
  if (problems.length) throw new UsageError(`${problems.join(' ')} Nothing was sent.`);
}

async function sendAll(o: SendOptions, key: OpenKey, io: CliIO): Promise<SendCounts> {
  const counts: SendCounts = { passed: 0, failed: 0, invalid: 0, notSent: 0 };
  let lastToken = '';
  const sign: BodySigner = async (body) => (lastToken = await key.sign(body));
  let mismatchSaid = false;
  for (let i = 0; i < o.files.length; i++) {
    const file = o.files[i]!;
    const position = { file, index: i + 1, total: o.files.length };
    const read = readFixture(file, o);
    if (!read.ok) {
      counts.invalid++;
      io.emit({
        event: 'fixture-invalid',
        ...position,
        ...(read.plain ? { plainEvent: true } : {}),
        problems: read.problems,
      });
      continue;
    }
    const resolved = prepared(read.fixture, o, io.clock.now());
    const sent = await sendResolvedFixture(resolved, o.to, sign, {
      timeoutMs: o.timeoutMs,
      caRemedy: { flag: '--ca' },
      ...(o.tls ? { tls: o.tls } : {}),
    });
    const a = sent.answer;
    if (a.failure) {
      counts.failed++;
      counts.notSent = o.files.length - i - 1;
      emitUnanswered(io, o.to, position, resolved, sent, counts.notSent);
      break;
    }
    if (sent.expected) counts.passed++;
    else counts.failed++;
    io.emit({
      event: 'fixture-sent',
      ...position,
      to: o.to,
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
    if (!mismatchSaid) mismatchSaid = emitTrustMismatch(io, o, key, file, sent, lastToken);
  }
  return counts;
}

function emitUnanswered(
  io: CliIO,
  to: string,
  position: { file: string; index: number; total: number },
  resolved: ResolvedFixture,
  sent: FixtureSent,
  notSent: number,
): void {
  const a = sent.answer;
  io.emit({
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
    ...(a.tls ? { tls: a.tls } : {}),
  });
  // A certificate problem is named with its fix in the error itself; "is it running" would send the user elsewhere.
  const next = a.tls ? 'Then send again.' : `Check that ${to} is running and reachable, then send again.`;
  io.emit({
    event: 'error',
    kind: a.failure === 'timeout' ? 'timeout' : 'unreachable',
    ...(a.tls ? { tls: a.tls } : {}),
    message: `${a.error} (waited ${a.latencyMs} ms)${notSent ? `; the other ${notSent} fixture(s) were not sent` : ''}. ${next}`,
  });
}

/** Explains a refusal at a step trust decides (issuer, key, signature, audience); true when it did. */
function emitTrustMismatch(
  io: CliIO,
  o: SendOptions,
  key: OpenKey,
  file: string,
  sent: FixtureSent,
  lastToken: string,
): boolean {
  const a = sent.answer;
  if (sent.expected || a.status === undefined) return false;
  const refusal = refusalOf(
    { ...key.trust, kid: kidOf(`Bearer ${lastToken}`) },
    { status: a.status, body: a.body?.toString('utf8'), retryAfter: a.headers?.['retry-after'] },
  );
  if (!refusal?.trust) return false;
  const k = refusal.signedWith;
  io.emit({
    event: 'trust-mismatch',
    file,
    to: o.to,
    issuer: k.issuer,
    audience: k.audience,
    jwksUrl: k.jwksUrl,
    kid: k.kid ?? null,
    status: refusal.status,
    ...(refusal.said ? { answer: refusal.said } : {}),
    ...(refusal.step !== undefined ? { step: refusal.step } : {}),
    ...(refusal.retryAfter ? { retryAfter: refusal.retryAfter } : {}),
    trust: true,
    message: `${refusalText(refusal, file, o.to)}${refusal.step === undefined ? ' It names no reason: the key may be why.' : ''}`,
    fix: `${matchAdvice(refusal)} ${trustAdvice(o.source, k)}`,
  });
  return true;
}

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

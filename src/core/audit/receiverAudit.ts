// Runs the audit cases against a developer's receiver: the sandbox signs, the target answers, each case is
// judged by the spec. Loopback targets only unless confirmed; a fixed number of requests, each with a timeout,
// and an overall deadline. No real credential is ever sent: every token is the sandbox's own.
import { createPublicKey } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { calculateJwkThumbprint, exportJWK, generateKeyPair } from 'jose';
import { isLoopbackHost } from '../http/loopback';
import { schemeHintSaid } from '../http/schemeHint';
import { httpRequest, TransportError } from '../http/request';
import type { Dispatcher } from 'undici';
import { targetDispatcher, type TargetTls } from '../http/targetTls';
import { type CaRemedy, namedTlsFailure, type TlsProblem } from '../http/tlsFailure';
import type { Clock } from '../time/clock';
import { AUDIT_CASES, forgedDelivery, genuineDelivery, type AuditCase, type AuditContext } from './auditCases';
import { SandboxControlClient, type AuditIssuer, type SandboxTrust } from '../sandbox/sandboxControlClient';
import {
  CODE_CHECKS,
  probeVerdict,
  probeWithProcessedCount,
  readProcessedCount,
  type CodeCheck,
  type ProbeVerdict,
} from './inYourCode';
import {
  answeredStep,
  kidOf,
  matchAdviceSaid,
  refusalOf,
  signingKeySaid,
  stepAdviceSaid,
  type TrustMismatch,
} from './trustMismatch';
import { english, said, SaidError, saidOf, type Said, type SaidValue } from '../presentation/said';

export interface AuditCaseResult {
  id: string;
  title: string;
  rule: string;
  why: string;
  expected: number;
  status?: number;
  error?: string;
  passed: boolean;
  /** Why it failed, or what was seen. */
  detail: string;
  fix: string;
  request: { method: 'POST'; url: string; headers: Record<string, string>; body: string; bodyBase64: string };
  /** The same words for a face that words them in the user's language (auditWords.ts); the string fields are their
   * English. Absent in a result not made by runAudit; the exported JSON leaves it out. */
  said?: AuditResultWords;
  response?: { status: number; body: string };
  durationMs: number;
  /** On the genuine case, when the receiver refused it: what signed it and what the receiver answered. */
  trustMismatch?: TrustMismatch;
}

/** What a person reads of a case's result, as Saids. */
interface AuditResultWords {
  title: Said;
  rule: Said;
  why: Said;
  fix: Said;
  detail: Said;
}

export interface AuditSummary {
  target: string;
  trust: SandboxTrust;
  /** Cases and probes: passed + failed = total (the cases, plus the probes run with a processed-count URL). */
  passed: number;
  failed: number;
  total: number;
  startedAt: string;
  results: AuditCaseResult[];
  /** Mistakes not visible from outside: what to look for, and a probe's result when a processed-count URL was given. */
  inYourCode: CodeCheck[];
  /** The receiver refused the genuine delivery: the audit stopped there, and `results` holds that case alone. */
  trustMismatch?: TrustMismatch;
  /** Cases not sent because the genuine delivery was refused. */
  notSent?: number;
}

export interface AuditOptions {
  target: string;
  /** The sandbox that signs, or `issuer` for another (the test kit's); one of the two. */
  sandboxUrl?: string;
  /** With sandboxUrl: the sandbox's controlSecret (the audit signs through its control API). */
  sandboxSecret?: string;
  issuer?: AuditIssuer;
  clock: Clock;
  /** Required for any target that is not loopback: the audit sends forged requests. */
  allowNonLocal?: boolean;
  requestTimeoutMs?: number;
  deadlineMs?: number;
  cases?: AuditCase[];
  /** The receiver's count of processed deliveries (a number, or {"processed": N}): enables the dedupe probes. */
  processedUrl?: string;
  onResult?: (r: AuditCaseResult) => void;
  /** Checked before each case: true stops the run (the cases not sent are left out of the summary). */
  shouldStop?: () => boolean;
  /** Told each request's Authorization just before it is sent (the extension's own receiver trusts the audit's
   * tokens one delivery each, to judge them by the signer's key set whatever environment is in use). */
  beforeSend?: (authorization: string | undefined) => void;
  /** The receiver's own TLS (`wfs audit --ca` or `--insecure`), for the requests to the target. */
  tls?: TargetTls;
  /** Where the user gives the receiver's root, for the words of a TLS failure (default: the environment). */
  caRemedy?: CaRemedy;
}

/** The audit will not run as asked: nothing was sent. `message` is English; `said` words it. */
export class AuditRefused extends SaidError {}

/** Nothing answered at the target: the connection was refused, the host unknown, the route missing, or its TLS
 * failed. Nothing was audited, so no case is reported: each would fail with the same cause and advice about the
 * wrong thing. */
export class AuditTargetUnreachable extends SaidError {
  constructor(
    readonly target: string,
    readonly code: string | undefined,
    message: Said,
    /** What was wrong with the receiver's certificate, when that was the cause (the message names it and its fix). */
    readonly tls?: TlsProblem,
  ) {
    super(message);
    this.name = 'AuditTargetUnreachable';
  }
}

/** Checks the target before anything is sent. */
export function checkTarget(target: string, allowNonLocal = false): URL {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    const hint = schemeHintSaid(target);
    throw new AuditRefused(hint ? said('"{0}" is not a URL {1}.', target, hint) : said('"{0}" is not a URL.', target));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    const hint = schemeHintSaid(target);
    throw new AuditRefused(
      hint ? said('The target must be an http(s) URL {0}.', hint) : said('The target must be an http(s) URL.'),
    );
  }
  if (url.username || url.password) throw new AuditRefused(said('The target URL must not carry credentials.'));
  if (!isLoopbackHost(url.hostname) && !allowNonLocal)
    throw new AuditRefused(
      said(
        '{0} is not a loopback address. The audit sends forged requests: confirm that this is your own receiver first (CLI: --allow-remote).',
        url.host,
      ),
    );
  return url;
}

/** A second loopback server that serves the audit's own key: as a key set at any path, and as a PEM at /x5u.pem.
 * The jku, x5u and iss-derived cases check nobody ever asks it. */
async function startDecoy(
  jwks: unknown,
  pem: string,
): Promise<{ url: string; origin: string; requests: () => number; stop: () => Promise<void> }> {
  let n = 0;
  const server: Server = createServer((req, res) => {
    n++;
    if (req.url?.endsWith('.pem')) {
      res.writeHead(200, { 'content-type': 'application/x-pem-file' });
      return void res.end(pem);
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(jwks));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    origin: `http://127.0.0.1:${port}`,
    requests: () => n,
    stop: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

function judge(
  c: AuditCase,
  status: number | undefined,
  error: SaidValue | undefined,
  watchFailure: Said | undefined,
  retryAfter?: string,
): { passed: boolean; detail: Said } {
  if (status === undefined) return { passed: false, detail: said('no answer: {0}', error ?? '') };
  const undecided = c.kidNotHeld && status === 503 && retryAfter !== undefined;
  if (status !== c.expectStatus && !undecided) {
    const what = wrongAnswer(c.expectStatus, status);
    return { passed: false, detail: watchFailure ? said('{0}; and {1}', what, watchFailure) : what };
  }
  if (watchFailure) return { passed: false, detail: said('answered {0} as expected, but {1}', status, watchFailure) };
  if (undecided)
    return {
      passed: true,
      detail: said(
        'answered 503 with Retry-After {0}: not decided until the receiver may fetch its key set again, which accepts nothing and loses no key rotated in since its last fetch',
        retryAfter!,
      ),
    };
  return { passed: true, detail: said('answered {0} as expected', status) };
}

/** Why an answer other than the expected one is wrong. */
function wrongAnswer(expected: number, status: number): Said {
  if (expected === 200) return said('answered {0}; a genuine delivery must be answered 200', status);
  if (status >= 200 && status < 300)
    return said('answered {0}: the receiver accepted a delivery it must refuse', status);
  if (status >= 500) return said('answered {0}: a refusal must be 403 (a 5xx makes the service resend it)', status);
  return said('answered {0}; the spec says 403 on any verification failure', status);
}

/** Requests in a row that ran into the timeout, with none answered before them, after which the rest are not sent. */
const SILENT_LIMIT = 2;

export async function runAudit(o: AuditOptions): Promise<AuditSummary> {
  const target = checkTarget(o.target, o.allowNonLocal).toString();
  if (!o.issuer && !o.sandboxUrl)
    throw new AuditRefused(said('The audit needs an issuer that signs: a sandbox URL, or a test issuer.'));
  const sandbox = o.issuer ?? new SandboxControlClient(o.sandboxUrl!, o.sandboxSecret ?? '');
  const trust = await sandbox.trust();
  // The probes read the count after all the cases: one that cannot be read is said now, before anything is sent.
  if (o.processedUrl) {
    await readProcessedCount(o.processedUrl, o.requestTimeoutMs ?? 10_000).catch((err: unknown) => {
      throw new AuditRefused(said('The processed count cannot be read: {0}. Nothing was sent.', saidOf(err)));
    });
  }
  const { ctx, decoy } = await auditContext(sandbox, trust, o.clock);
  const dispatcher = await targetDispatcher(o.tls);
  const run = new AuditRun(o, target, ctx, dispatcher);
  try {
    await run.sendCases();
    if (!run.mismatch) await run.probe();
  } finally {
    await dispatcher?.destroy().catch(() => undefined);
    await decoy.stop();
    await sandbox.clearFaults().catch(() => undefined);
  }
  return run.summary();
}

/** What every case builds its request from: the signer, and a foreign key served by a decoy no case may reach. */
async function auditContext(
  sandbox: AuditIssuer,
  trust: SandboxTrust,
  clock: Clock,
): Promise<{ ctx: AuditContext; decoy: { stop: () => Promise<void> } }> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { modulusLength: 2048 });
  const publicJwk = await exportJWK(publicKey);
  const kid = `audit-${(await calculateJwkThumbprint(publicJwk)).slice(0, 12)}`;
  const foreignJwk = { ...publicJwk, kid, alg: 'RS256', use: 'sig' };
  const decoy = await startDecoy(
    { keys: [foreignJwk] },
    createPublicKey({ key: publicJwk as never, format: 'jwk' }).export({ type: 'spki', format: 'pem' }) as string,
  );
  const ctx = {
    sandbox,
    trust,
    nowS: () => Math.floor(clock.now() / 1000),
    foreign: { privateKey, kid },
    decoy,
    foreignJwk,
  };
  return { ctx, decoy };
}

type AuditCaseBase = Omit<AuditCaseResult, 'passed' | 'detail' | 'durationMs' | 'said'>;
type Probes = Partial<Record<CodeCheck['id'], ProbeVerdict>>;

/** A judged result: its detail in English beside its words. */
function judged(c: AuditCase, passed: boolean, detail: Said): Pick<AuditCaseResult, 'passed' | 'detail' | 'said'> {
  return { passed, detail: english(detail), said: { ...c.said, detail } };
}

/** One audit, case by case: the genuine delivery first, then each other case, then the probes. */
class AuditRun {
  readonly results: AuditCaseResult[] = [];
  mismatch?: TrustMismatch;
  private readonly deadline: number;
  private readonly startedAt: string;
  private readonly timeoutMs: number;
  /** A receiver that has answered nothing, the first requests running into the timeout, is not answering at all:
   * the rest are not sent, rather than each waiting out the timeout in turn until the overall deadline. */
  private answered = false;
  private unanswered = 0;
  private probes: Probes = {};
  private readonly genuineCase: AuditCase;
  private readonly trustCheckOnly: boolean;
  private readonly cases: AuditCase[];

  constructor(
    private readonly o: AuditOptions,
    private readonly target: string,
    private readonly ctx: AuditContext,
    /** The target's own TLS, when the audit was given one. */
    private readonly dispatcher?: Dispatcher,
  ) {
    this.deadline = o.clock.now() + (o.deadlineMs ?? 120_000);
    this.startedAt = new Date(o.clock.now()).toISOString();
    this.timeoutMs = o.requestTimeoutMs ?? 10_000;
    // The genuine delivery goes first, asked for or not: it tells whether the receiver trusts the audit's key at
    // all. Refused, nothing else can be judged (a refused forgery proves nothing then), so nothing else is sent.
    const requested = o.cases ?? AUDIT_CASES;
    this.genuineCase = requested.find((c) => c.id === 'genuine') ?? AUDIT_CASES.find((c) => c.id === 'genuine')!;
    this.trustCheckOnly = !requested.includes(this.genuineCase);
    this.cases = [this.genuineCase, ...requested.filter((c) => c !== this.genuineCase)];
  }

  private get silent(): boolean {
    return !this.answered && this.unanswered >= SILENT_LIMIT;
  }

  private silence(): Said {
    return said(
      'not sent: the receiver answered none of the first {0} requests within {1} ms',
      SILENT_LIMIT,
      this.timeoutMs,
    );
  }

  private push(r: AuditCaseResult): void {
    this.results.push(r);
    this.o.onResult?.(r);
  }

  async sendCases(): Promise<void> {
    for (const c of this.cases) {
      if (this.o.shouldStop?.()) break;
      const t0 = this.o.clock.now();
      const req = await c.build(this.ctx);
      const base = this.caseBase(c, req);
      const notSent = this.silent
        ? this.silence()
        : this.o.clock.now() > this.deadline
          ? said('not sent: the audit reached its overall deadline')
          : undefined;
      if (notSent) {
        this.push({ ...base, ...judged(c, false, notSent), durationMs: 0 });
        continue;
      }
      const { result: r, retryAfter } = await this.sendCase(c, req, base, t0);
      if (c === this.genuineCase && r.status !== undefined && this.refusedGenuine(r, req, retryAfter)) {
        this.push(r);
        break;
      }
      // The genuine delivery sent only to check trust, and not refused, is not a result of its own.
      if (c === this.genuineCase && this.trustCheckOnly) continue;
      this.push(r);
    }
  }

  private caseBase(c: AuditCase, req: { headers: Record<string, string>; body: Buffer }): AuditCaseBase {
    return {
      id: c.id,
      title: c.title,
      rule: c.rule,
      why: c.why,
      expected: c.expectStatus,
      fix: c.fix,
      request: {
        method: 'POST' as const,
        url: this.target,
        headers: req.headers,
        body: req.body.toString('utf8'),
        bodyBase64: req.body.toString('base64'),
      },
    };
  }

  /** Sends one case and judges its answer (and what it watched, such as key-set requests). */
  private async sendCase(
    c: AuditCase,
    req: { headers: Record<string, string>; body: Buffer },
    base: AuditCaseBase,
    t0: number,
  ): Promise<{ result: AuditCaseResult; retryAfter?: string }> {
    let answer: { status: number; body: string; retryAfter?: string } | undefined;
    let error: string | undefined;
    let errorSaid: SaidValue | undefined;
    const watchedBefore = c.watch ? await c.watch(this.ctx) : 0;
    await c.before?.(this.ctx);
    try {
      answer = await this.send(req);
    } catch (err) {
      // A certificate problem at the receiver is named with its fix rather than as "cannot reach".
      const tls = namedTlsFailure(err, this.target, {
        remedy: this.o.caRemedy ?? 'environment',
        who: said('your receiver'),
        ...(this.o.tls?.caFile !== undefined ? { caFile: this.o.tls.caFile } : {}),
      });
      error = tls?.message ?? (err as Error).message;
      errorSaid = tls ? tls.said : saidOf(err);
      if (err instanceof TransportError && err.reason === 'timeout') this.unanswered++;
      // The first request found nothing there: said once, instead of every case failing the same way.
      if (!this.answered && this.results.length === 0 && err instanceof TransportError && err.reason === 'network')
        throw new AuditTargetUnreachable(this.target, err.code, tls ? tls.said : err.said, tls?.problem);
    } finally {
      await c.after?.(this.ctx);
    }
    if (answer) this.answered = true;
    const watchFailure = c.watch && c.judgeWatch ? c.judgeWatch(watchedBefore, await c.watch(this.ctx)) : undefined;
    const verdict = judge(c, answer?.status, errorSaid, watchFailure, answer?.retryAfter);
    const result: AuditCaseResult = {
      ...base,
      status: answer?.status,
      error,
      ...judged(c, verdict.passed, verdict.detail),
      response: answer && { status: answer.status, body: answer.body },
      durationMs: this.o.clock.now() - t0,
    };
    return { result, retryAfter: answer?.retryAfter };
  }

  private async send(req: {
    headers: Record<string, string>;
    body: Buffer;
  }): Promise<{ status: number; body: string; retryAfter?: string }> {
    this.o.beforeSend?.(req.headers.authorization);
    const res = await httpRequest({
      method: 'POST',
      url: this.target,
      headers: req.headers,
      body: req.body,
      timeoutMs: this.timeoutMs,
      maxResponseBytes: 16 * 1024,
      ...(this.dispatcher ? { dispatcher: this.dispatcher } : {}),
    });
    return {
      status: res.status,
      body: res.body.toString('utf8').slice(0, 2000),
      retryAfter: res.headers['retry-after'],
    };
  }

  /** Whether the receiver refused the genuine delivery; if so, `r` says with which key, and how to match it. */
  private refusedGenuine(
    r: AuditCaseResult,
    req: { headers: Record<string, string> },
    retryAfter: string | undefined,
  ): boolean {
    const { issuer, audience, jwksUrl } = this.ctx.trust;
    const signedWith = { issuer, audience, jwksUrl, kid: kidOf(req.headers.authorization) };
    const answer = r.response!;
    this.mismatch = refusalOf(signedWith, { status: answer.status, body: answer.body, retryAfter });
    if (!this.mismatch) return false;
    const others = this.cases.length - 1;
    r.trustMismatch = this.mismatch;
    const answered = this.mismatch.said
      ? said('answered {0} ("{1}")', answer.status, this.mismatch.said)
      : said('answered {0}', answer.status);
    const notSent =
      others === 1
        ? said('the other case was not sent, since a refusal of theirs would say nothing')
        : said('the other {0} cases were not sent, since a refusal of theirs would say nothing', others);
    setDetail(
      r,
      said(
        '{0}: the receiver refused a genuine delivery, signed with {1}; {2}',
        answered,
        signingKeySaid(signedWith),
        notSent,
      ),
    );
    setFix(r, matchAdviceSaid(this.mismatch));
    return true;
  }

  /** With a processed-count URL: the dedupe probes, which only the receiver's own count can judge. */
  async probe(): Promise<void> {
    if (!this.o.processedUrl) return;
    if (this.silent) {
      const silence = said(
        'not probed: the receiver answered none of the first {0} requests within {1} ms',
        SILENT_LIMIT,
        this.timeoutMs,
      );
      this.probes = {
        'duplicates-processed-twice': probeVerdict(false, silence),
        'dedupe-poisoning': probeVerdict(false, silence),
      };
      return;
    }
    const send = async (req: { headers: Record<string, string>; body: Buffer }) => (await this.send(req)).status;
    try {
      this.probes = await probeWithProcessedCount({
        processedUrl: this.o.processedUrl,
        timeoutMs: this.timeoutMs,
        sendGenuine: async (id) => send(await genuineDelivery(this.ctx, 'in-your-code', id)),
        sendForged: async (id) => send(await forgedDelivery(this.ctx, 'in-your-code', id)),
      });
    } catch (err) {
      const detail = said('not probed: {0}', saidOf(err));
      this.probes = {
        'duplicates-processed-twice': probeVerdict(false, detail),
        'dedupe-poisoning': probeVerdict(false, detail),
      };
    }
  }

  summary(): AuditSummary {
    const results = this.results;
    reattributeFailures(results);
    const inYourCode = CODE_CHECKS.map((c) => ({ ...c, ...(this.probes[c.id] ? { probe: this.probes[c.id] } : {}) }));
    // A probe run counts like a case, in all three figures: passed + failed = total.
    const probed = inYourCode.filter((c) => c.probe);
    const total = results.length + probed.length;
    const passed = results.filter((r) => r.passed).length + probed.filter((c) => c.probe!.passed).length;
    return {
      target: this.target,
      trust: this.ctx.trust,
      passed,
      failed: total - passed,
      total,
      startedAt: this.startedAt,
      results,
      inYourCode,
      ...(this.mismatch ? { trustMismatch: this.mismatch, notSent: this.cases.length - 1 } : {}),
    };
  }
}

/** The step of the seven a case probes, from its rule ("Step 5: …"); undefined for the genuine and duplicate cases. */
function probedStep(rule: string): number | undefined {
  const m = /^Step (\d)\b/.exec(rule);
  return m ? Number(m[1]) : undefined;
}

/** A result's detail, its English and its words together. */
function setDetail(r: AuditCaseResult, detail: Said): void {
  r.detail = english(detail);
  if (r.said) r.said = { ...r.said, detail };
}

/** A result's fix, its English and its words together. */
function setFix(r: AuditCaseResult, fix: Said): void {
  r.fix = english(fix);
  if (r.said) r.said = { ...r.said, fix };
}

/**
 * A case's fixed advice is right only when it failed for the reason it probes. When a delivery the receiver must
 * accept was refused for another reason (the genuine delivery refused too, or the receiver names another step),
 * the advice is replaced by the step and the reason the receiver gave.
 */
export function reattributeFailures(results: AuditCaseResult[]): void {
  const genuine = results.find((r) => r.id === 'genuine');
  for (const r of results) {
    if (r.passed || r.status === undefined) continue;
    const probed = probedStep(r.rule);
    const step = answeredStep(r.response?.body);
    const words = r.response?.body.trim().split('\n')[0]?.slice(0, 200) ?? '';
    if (step !== undefined && probed !== undefined && step !== probed) {
      setFix(
        r,
        said(
          'Your receiver says it refused this delivery at step {0} ("{1}"), but this case probes step {2}, so its usual advice does not apply. Fix step {0} first: {3}',
          step,
          words,
          probed,
          stepAdviceSaid(step),
        ),
      );
    } else if (
      r.id !== 'genuine' &&
      r.expected === 200 &&
      genuine &&
      !genuine.passed &&
      (genuine.status === r.status || (step !== undefined && step === answeredStep(genuine.response?.body)))
    ) {
      const about = probed ? said('step {0}', probed) : said('this rule');
      setFix(
        r,
        step
          ? said(
              'The genuine delivery was answered {0} too, so this failure says nothing about {1}. Fix the genuine case first (your receiver names step {2}: "{3}"), then run the audit again.',
              String(genuine.status),
              about,
              step,
              words,
            )
          : said(
              'The genuine delivery was answered {0} too, so this failure says nothing about {1}. Fix the genuine case first, then run the audit again.',
              String(genuine.status),
              about,
            ),
      );
    }
  }
}

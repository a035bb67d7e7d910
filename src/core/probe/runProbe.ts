// The probe: a fixed series of at most 20 requests that can never bill, spaced on the injected clock, every
// credential sent only to the environment's own origins. A 429 stops it; a 2xx on any start stops it at once.
import { randomUUID } from 'node:crypto';
import type { AliasPlacement, Credentials } from '../auth/TokenManager';
import { assertCredentialOrigin } from '../http/credentialOrigin';
import {
  REFRESH_PATH,
  SIGN_IN_PATH,
  TEST_WEBHOOK_PATH,
  WORKFLOW_ROOT,
  joinUrl,
  startWorkflowUrl,
  workflowUrl,
} from '../http/paths';
import { httpRequest, redactUrl, TransportError, type HttpRequest, type HttpResponse } from '../http/request';
import { english, said, saidOf, type Said } from '../presentation/said';
import type { Clock } from '../time/clock';
import { buildTestWebhookRequest } from '../webhooks/testWebhookRequest';
import { findWorkflowsUrl } from '../workflows/WorkflowClient';
import { TOOLKIT_NAME, TOOLKIT_VERSION } from '../version';
import { ROWS, rowSpec, type JudgeContext } from './expectations';
import { judgeRow, notProbed } from './judgeRow';
import { keySetFacts, tokenFields, workflowIdOf } from './probeAnswers';
import { describeSaid, jwtNames, observe } from './observe';
import {
  WORDS,
  type Observation,
  type ProbeOutcome,
  type ProbeReport,
  type RowResult,
  type Verdict,
} from './probeTypes';
import type { WebhookCapture } from './webhookCapture';

/** The most requests one run may send, every one counted (the key sets' too). */
export const MAX_PROBE_REQUESTS = 20;
/** Key sets read at most: the rest of the budget is the fixed series. */
export const MAX_KEY_SETS = 3;
export const DEFAULT_SPACING_MS = 1000;

export interface ProbeTarget {
  baseUrl: string;
  testWebhookUrl: string;
  credentials: Credentials;
  aliasPlacement: AliasPlacement;
  /** {problems_base}; default: baseUrl. */
  problemsBase?: string;
  /** Find Workflows' address with {correlationId}; without it Find Workflows is not probed. */
  findWorkflowsUrl?: string;
  jwksUrls: string[];
  /** Whether the test endpoint is a local sandbox (which takes loopback http addresses). */
  isLocalSandbox: boolean;
}

export interface ProbeOptions {
  clock: Clock;
  spacingMs?: number;
  includeRefusal?: boolean;
  /** The test webhook: the address the service is given and the receiver that sees what arrives there. */
  webhook?: { address: string; capture: WebhookCapture; waitMs?: number };
  onRow?: (row: RowResult) => void;
  timeoutMs?: number;
}

/** Ends the series: how, and the message for a person (its English is the outcome's message). */
class Stop extends Error {
  readonly outcome: ProbeOutcome;
  constructor(outcome: Omit<ProbeOutcome, 'message'>, message: Said) {
    super(english(message));
    const { ended, accepted } = outcome;
    this.outcome = { ended, message: this.message, ...(accepted ? { accepted } : {}), [WORDS]: message };
  }
}

/** Why a row was not reached, by how the probe ended. */
const NOT_REACHED: Record<ProbeOutcome['ended'], Said> = {
  complete: said('not reached: complete'),
  throttled: said('not reached: throttled'),
  'start-accepted': said('not reached: start accepted'),
  'sign-in-refused': said('not reached: sign in refused'),
  'request-failed': said('not reached: request failed'),
};
const NO_KEY_SET = said('no key set is configured for this environment');

interface Sent {
  res: HttpResponse;
  obs: Observation;
}

export async function runProbe(target: ProbeTarget, options: ProbeOptions): Promise<ProbeReport> {
  if (target.jwksUrls.length > MAX_KEY_SETS)
    throw new Error(`at most ${MAX_KEY_SETS} key sets are read in one probe (got ${target.jwksUrls.length})`);
  assertCredentialOrigin(target.baseUrl, 'The service address');
  assertCredentialOrigin(target.testWebhookUrl, 'The webhook test endpoint');
  const run = new ProbeRun(target, options);
  let outcome: ProbeOutcome = { ended: 'complete' };
  try {
    await run.steps();
  } catch (err) {
    if (!(err instanceof Stop)) throw err;
    outcome = err.outcome;
  }
  return run.report(outcome);
}

/** One run of the probe: the rows so far, the requests counted, and each step of the series as a method. */
class ProbeRun {
  private readonly rows: RowResult[] = [];
  private requests = 0;
  private readonly probeId = `wfs-probe-${randomUUID()}`;
  private readonly credentialOrigins: Set<string>;
  private readonly ctx: JudgeContext;

  constructor(
    private readonly target: ProbeTarget,
    private readonly options: ProbeOptions,
  ) {
    this.credentialOrigins = new Set([new URL(target.baseUrl).origin, new URL(target.testWebhookUrl).origin]);
    this.ctx = { problemsBase: (target.problemsBase ?? target.baseUrl).replace(/\/+$/, '') };
  }

  /** The series, in order; a Stop ends it where it is thrown. */
  async steps(): Promise<void> {
    const tokens = await this.signIn();
    await this.wrongPassword();
    await this.refreshes(tokens.refresh);
    await this.starts(tokens.access);
    await this.reads(tokens.access);
    const kids = await this.keySets();
    if (this.options.webhook) await this.testWebhook(this.options.webhook, tokens.access, kids);
    else for (const id of WEBHOOK_ROWS) this.skip(id, said('no --webhook-address given'));
  }

  /** The report, every row included: those the probe did not reach are listed as such. */
  report(outcome: ProbeOutcome): ProbeReport {
    const { rows, target } = this;
    for (const r of ROWS) if (!rows.some((x) => x.id === r.id)) this.skip(r.id, NOT_REACHED[outcome.ended]);
    const counts: Record<Verdict, number> = { 'as-spec': 0, silent: 0, differs: 0, 'not-probed': 0 };
    for (const r of rows) counts[r.verdict]++;
    return {
      tool: TOOLKIT_NAME,
      version: TOOLKIT_VERSION,
      at: new Date(this.options.clock.now()).toISOString(),
      origins: {
        service: new URL(target.baseUrl).origin,
        testWebhook: new URL(target.testWebhookUrl).origin,
        keySets: target.jwksUrls.map((u) => new URL(u).origin),
      },
      requests: this.requests,
      rows: ROWS.flatMap((r) => rows.filter((x) => x.id === r.id)),
      outcome,
      counts,
    };
  }

  /** 1. Sign in with the given credentials: without a token the probe cannot go on. */
  private async signIn(): Promise<{ access: string; refresh?: string }> {
    const signIn = await this.send(signInRequest(this.target, this.target.credentials.password), true);
    const tokens = tokenFields(signIn.res);
    signIn.obs.facts = { ...signIn.obs.facts, ...tokens.facts };
    this.record('sign-in', signIn.obs);
    if (signIn.res.status !== 200 || !tokens.access)
      throw new Stop(
        { ended: 'sign-in-refused' },
        said(
          'Sign-in with the given credentials was answered {0}: the probe needs a token to go on. Check the username and password (WFS_USERNAME, WFS_PASSWORD), then run it again.',
          describeSaid(signIn.obs),
        ),
      );
    const jwt = jwtNames(tokens.access);
    this.record('access-token', { status: 200, contentType: '', bodyKind: 'other', ...(jwt ? { jwt } : {}) });
    return { access: tokens.access, refresh: tokens.refresh };
  }

  /** 2. Optionally, once, a wrong password. */
  private async wrongPassword(): Promise<void> {
    if (!this.options.includeRefusal) return this.skip('sign-in-refusal', said('not asked (--include-refusal)'));
    const wrong = await this.send(signInRequest(this.target, `wfs-probe-wrong-${randomUUID()}`), true);
    this.record('sign-in-refusal', wrong.obs);
  }

  /** 3. Refresh with the refresh token, then with a garbage one. */
  private async refreshes(refreshToken: string | undefined): Promise<void> {
    const url = joinUrl(this.target.baseUrl, REFRESH_PATH);
    if (refreshToken) {
      const refresh = await this.send({ method: 'POST', url, json: { refresh_token: refreshToken } }, true);
      const renewed = tokenFields(refresh.res);
      refresh.obs.facts = {
        ...refresh.obs.facts,
        ...renewed.facts,
        ...(renewed.refresh !== undefined ? { refreshTokenRotated: renewed.refresh !== refreshToken } : {}),
      };
      this.record('refresh', refresh.obs);
    } else this.skip('refresh', said('the sign-in gave no refresh_token'));
    const garbage = await this.send(
      { method: 'POST', url, json: { refresh_token: `wfs-probe-${randomUUID()}` } },
      true,
    );
    this.record('refresh-refusal', garbage.obs);
  }

  /** 4. Starts that can never be accepted: on a session that cannot exist, for a product that cannot resolve; 5. the
   * start path without its context root (the infrastructure's 404). */
  private async starts(access: string): Promise<void> {
    const { probeId } = this;
    const startUrl = startWorkflowUrl(this.target.baseUrl, probeId);
    const json = { product: { service: probeId, model: 'wfs-probe' }, correlationId: probeId };
    const common = { 'x-svc-correlationid': probeId };
    const bearer = { ...common, authorization: `Bearer ${access}` };
    const post = (headers: Record<string, string>, more: Partial<HttpRequest> = { json }): HttpRequest => ({
      method: 'POST',
      url: startUrl,
      headers,
      ...more,
    });
    await this.start('start-no-auth', post(common), false);
    await this.start('start-bad-token', post({ ...common, authorization: 'Bearer wfs-probe.not-a.token' }), true);
    await this.start('start-malformed-json', post(bearer, { body: '{"product": {"service": ' }), true);
    await this.start(
      'start-no-content-type',
      post(bearer, { body: JSON.stringify(json), omitContentType: true }),
      true,
    );
    await this.start('start-unresolvable', post(bearer), true);
    const wrongRoot = joinUrl(
      this.target.baseUrl,
      `${WORKFLOW_ROOT.replace(/^\/[^/]+/, '')}/sessions/${probeId}/workflows`,
    );
    await this.start('wrong-context-root', { ...post(bearer), url: wrongRoot }, true);
  }

  /** 6. A read of a workflow that cannot exist; 7. Find Workflows, where configured. */
  private async reads(access: string): Promise<void> {
    const { target, probeId } = this;
    const headers = { 'x-svc-correlationid': probeId, authorization: `Bearer ${access}` };
    const read = await this.send({ method: 'GET', url: workflowUrl(target.baseUrl, `wf_${probeId}`), headers }, true);
    this.record('read-unknown', read.obs);
    if (!target.findWorkflowsUrl)
      return this.skip('find', said("Find Workflows' address is not configured for this environment"));
    const url = findWorkflowsUrl(target.baseUrl, probeId, target.findWorkflowsUrl);
    const find = await this.send({ method: 'GET', url, headers }, true);
    this.record('find', find.obs);
  }

  /** 8. The key sets (no credential goes there): the kids they publish. */
  private async keySets(): Promise<string[]> {
    const { jwksUrls } = this.target;
    if (jwksUrls.length === 0) {
      this.skip('key-set', NO_KEY_SET);
      this.skip('key-set-cache', NO_KEY_SET);
      return [];
    }
    const kids: string[] = [];
    for (const url of jwksUrls) {
      const ks = await this.send({ method: 'GET', url }, false);
      ks.obs.facts = { ...ks.obs.facts, ...keySetFacts(ks.res) };
      kids.push(...((ks.obs.facts.kids as string[] | undefined) ?? []));
      this.record('key-set', ks.obs);
      this.record('key-set-cache', ks.obs);
    }
    this.ctx.publishedKids = kids;
    return kids;
  }

  /** 9. One test webhook, and what arrives at the address it names. */
  private async testWebhook(hook: NonNullable<ProbeOptions['webhook']>, access: string, kids: string[]) {
    const { clock } = this.options;
    const testData = { probe: 'wfs probe-service', id: this.probeId };
    const built = buildTestWebhookRequest(
      { address: hook.address, topic: 'probe/test', subTopic: 'probe:probe/test', tenantId: 'wfs-probe', testData },
      clock.now(),
      this.target.isLocalSandbox,
    );
    hook.capture.expect(testData);
    const sent = await this.send(
      {
        method: 'POST',
        url: joinUrl(this.target.testWebhookUrl, TEST_WEBHOOK_PATH),
        headers: { ...built.headers, authorization: `Bearer ${access}` },
        json: built.json,
      },
      true,
    );
    this.record('test-webhook-response', sent.obs);
    const waitMs = hook.waitMs ?? 30_000;
    let timer: ReturnType<Clock['setTimeout']> | undefined;
    const arrived = await Promise.race([
      hook.capture.next(),
      new Promise<undefined>((r) => (timer = clock.setTimeout(() => r(undefined), waitMs))),
    ]);
    clock.clearTimeout(timer);
    if (!arrived) {
      const why = said('nothing arrived at the webhook address within {0} s', Math.round(waitMs / 1000));
      for (const id of ARRIVAL_ROWS) this.skip(id, why);
      return;
    }
    const obs = arrived.observation;
    if (kids.length > 0 && arrived.kid !== undefined)
      obs.facts = { ...obs.facts, kidPublished: kids.includes(arrived.kid) };
    for (const id of ARRIVAL_ROWS) this.record(id, obs);
  }

  /** One request of the series: counted, spaced on the clock, a credential only to the environment's origins. A
   * 429 or a request that fails stops the probe. */
  private async send(req: HttpRequest, credential: boolean): Promise<Sent> {
    if (this.requests >= MAX_PROBE_REQUESTS) throw new Error(`the probe sends at most ${MAX_PROBE_REQUESTS} requests`);
    if (credential) {
      const origin = new URL(req.url).origin;
      if (!this.credentialOrigins.has(origin))
        throw new Error(`refusing to send a credential to ${origin}, which is not the environment's`);
      assertCredentialOrigin(req.url, 'The address');
    }
    const { clock, spacingMs = DEFAULT_SPACING_MS, timeoutMs = 30_000 } = this.options;
    if (this.requests > 0) await new Promise<void>((r) => clock.setTimeout(r, spacingMs));
    this.requests++;
    let res: HttpResponse;
    try {
      res = await httpRequest({ timeoutMs, maxResponseBytes: 1024 * 1024, ...req });
    } catch (err) {
      const why =
        err instanceof TransportError ? saidOf(err) : said('{0}: {1}', redactUrl(req.url), (err as Error).message);
      throw new Stop({ ended: 'request-failed' }, said('The probe stopped: {0}.', why));
    }
    if (res.status === 429)
      throw new Stop(
        { ended: 'throttled' },
        said(
          'The service throttled the probe (429 at {0} {1}): it stopped there. Wait a minute or more, then run it again (without --include-refusal, which adds a refused credential).',
          req.method,
          redactUrl(req.url),
        ),
      );
    return { res, obs: observe(res) };
  }

  /** A start-like request: any 2xx stops the probe at once (outcome unknown, as a 500 would be). */
  private async start(id: string, req: HttpRequest, credential: boolean): Promise<void> {
    const { res, obs } = await this.send(req, credential);
    this.record(id, obs);
    if (res.status >= 200 && res.status < 300)
      throw new Stop(
        {
          ended: 'start-accepted',
          accepted: { row: id, status: res.status, workflowId: workflowIdOf(res), correlationId: this.probeId },
        },
        said(
          "A start the probe sent was answered {0} ({1}): a workflow may have been started and billed. It stopped at once. Search Find Workflows for correlationId {2} and tell the service's support; the probe never sends a start that should be accepted.",
          res.status,
          rowSpec(id).said.title,
          this.probeId,
        ),
      );
  }

  private record(id: string, obs: Observation): void {
    this.emit(judgeRow(id, obs, this.ctx));
  }

  private skip(id: string, why: Said): void {
    this.emit(notProbed(id, why));
  }

  private emit(row: RowResult): void {
    this.rows.push(row);
    this.options.onRow?.(row);
  }
}

/** The rows of what arrives at the webhook address. */
const ARRIVAL_ROWS = ['webhook-delivery', 'webhook-headers', 'webhook-jwt', 'webhook-jwt-extra'];
/** Every row of the test webhook. */
const WEBHOOK_ROWS = ['test-webhook-response', ...ARRIVAL_ROWS];

function signInRequest(target: ProbeTarget, password: string): HttpRequest {
  const { username, userAlias } = target.credentials;
  let url = joinUrl(target.baseUrl, SIGN_IN_PATH);
  const json: Record<string, string> = { username, password };
  const headers: Record<string, string> = {};
  if (userAlias && target.aliasPlacement === 'body') json.useralias = userAlias;
  if (userAlias && target.aliasPlacement === 'header') headers['x-svc-useralias'] = userAlias;
  if (userAlias && target.aliasPlacement === 'query') url += `?useralias=${encodeURIComponent(userAlias)}`;
  return { method: 'POST', url, headers, json };
}

// The tools that check something against the spec: the receiver audit (30 cases against the developer's own
// receiver, each failure with its fix) and the contract check (probe-service: the environment's answers against the
// spec, never billing).
import { AuditRefused, AuditTargetUnreachable, runAudit } from '../audit/receiverAudit';
import { matchAdvice, refusalText } from '../audit/trustMismatch';
import { summaryLine } from '../probe/probeReport';
import type { AssistantContext } from './assistantContext';
import { ToolRefused, titled, type AssistantTool } from './assistantTool';
import { english, said, type Said } from '../presentation/said';
import { auditTargetQuestion, auditTargetRefusal, parseAuditTarget } from './auditTargetRule';
import { checkAskable, personQuestion } from './personQuestion';

export interface AuditInput {
  /** "receiver", "app", or an http(s) URL that a person must confirm (auditTargetRule.ts). */
  target: string;
}

export interface AuditResult {
  target: string;
  passed: number;
  failed: number;
  total: number;
  /** Who signed the genuine deliveries: the receiver must trust this issuer for the genuine case to pass. */
  signedBy: { issuer: string; audience: string; jwksUrl: string };
  failures: {
    id: string;
    title: string;
    rule: string;
    expected: number;
    status: number | null;
    detail: string;
    fix: string;
  }[];
  passedCases: string[];
  /** The receiver refused the genuine delivery: the audit stopped there, judging nothing else. What signed it, what
   * the receiver answered, and how to make them match. */
  trustMismatch?: { refusal: string; advice: string; notSent: number };
  /** Mistakes the audit cannot see from outside: what to look for in the handler's code. */
  inYourCode: { title: string; lookFor: string }[];
}

export const auditReceiver: AssistantTool<AuditInput, AuditResult> = {
  name: 'wfs_audit_receiver',
  ...titled(said('Audit a webhook receiver')),
  summary: "Send the audit's 30 cases to your receiver and list each failure with its fix.",
  description: [
    "Sends the audit's 30 cases to the developer's own webhook receiver: one genuine signed delivery and forged or",
    'malformed ones (no token, an untrusted issuer, alg none, an expired token, a changed body, a replay…), and',
    'judges each answer by the spec (200 for genuine, 403 for the rest). Returns the failures, each with what went',
    'wrong and how to fix it in the handler. target "receiver" audits the receiver this toolkit runs or reads; "app"',
    "the user's app (the forward target). You never choose another destination: any other address (an http(s) URL",
    'as target) is audited only after the user confirms it; a client that cannot ask gets the `wfs audit` command',
    'for the user to run. The receiver must trust the sandbox issuer it reports: when it refuses the genuine',
    'delivery, the audit stops there and says how to make the trust match.',
  ].join(' '),
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['target'],
    properties: {
      target: {
        type: 'string',
        minLength: 3,
        maxLength: 2000,
        description:
          '"receiver" (the configured receiver), "app" (the configured forward target), or an http(s) URL that the user must confirm first.',
      },
    },
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  effect: 'sends',
  async preview(input, ctx) {
    const { url, named } = auditDestination(input, ctx);
    return {
      title: said('Audit a webhook receiver'),
      message: personQuestion(
        said(
          "Send the audit's 30 requests as POSTs to {0}: one genuine delivery signed with the sandbox key, and forged or malformed ones it must refuse with 403.",
          named,
        ),
        [{ label: said('Address'), field: 'target', value: url }],
      ),
    };
  },
  async run(input, ctx) {
    ctx.checkSending();
    const { url, confirm } = auditDestination(input, ctx);
    ctx.checkReach(url);
    // An address the model named: a person confirms that very address first, or nothing is sent.
    if (confirm) {
      auditTargetQuestion(url); // refused here when it cannot be shown, before anything is asked
      const refusal = auditTargetRefusal(await ctx.confirmAuditTarget(url), url);
      if (refusal) throw refusal;
    }
    const setup = await ctx.auditSetup(url);
    try {
      const signer = setup.signer;
      const s = await runAudit({
        target: url,
        ...('issuer' in signer ? { issuer: signer.issuer } : signer),
        clock: ctx.clock,
        allowNonLocal: true,
        requestTimeoutMs: 10_000,
        beforeSend: setup.beforeSend,
      });
      return {
        target: s.target,
        passed: s.passed,
        failed: s.failed,
        total: s.total,
        signedBy: { issuer: s.trust.issuer, audience: s.trust.audience, jwksUrl: s.trust.jwksUrl },
        failures: s.results
          .filter((r) => !r.passed)
          .map((r) => ({
            id: r.id,
            title: r.title,
            rule: r.rule,
            expected: r.expected,
            status: r.status ?? null,
            detail: r.detail,
            fix: r.fix,
          })),
        passedCases: s.results.filter((r) => r.passed).map((r) => r.id),
        ...(s.trustMismatch
          ? {
              trustMismatch: {
                refusal: refusalText(s.trustMismatch, 'the genuine delivery', s.target),
                advice: matchAdvice(s.trustMismatch),
                notSent: s.notSent ?? 0,
              },
            }
          : {}),
        inYourCode: s.inYourCode.map((c) => ({ title: c.title, lookFor: c.lookFor })),
      };
    } catch (err) {
      if (err instanceof AuditTargetUnreachable && err.tls)
        throw new ToolRefused(`${err.message}: nothing was audited.`);
      if (err instanceof AuditTargetUnreachable)
        throw new ToolRefused(
          `Nothing answered at ${err.target} (${err.code ?? err.message}): nothing was audited. Start the receiver so that it listens there, or check the URL.`,
        );
      if (err instanceof AuditRefused) throw new ToolRefused(err.message);
      throw err;
    } finally {
      setup.done();
    }
  },
};

/** Where the audit goes: the configured receiver or app, or an address the model named (which a person confirms). */
/** The preview and the run both call it, so an address the confirmation could not show is refused by the run too:
 * a tool whose preview fails is run without VS Code's confirmation (languageModelTools.ts). */
function auditDestination(input: AuditInput, ctx: AssistantContext): { url: string; named: Said; confirm: boolean } {
  const t = parseAuditTarget(input.target);
  const d =
    t.kind === 'receiver'
      ? { url: ctx.receiverUrl(), named: said('the receiver'), confirm: false }
      : t.kind === 'app'
        ? { url: ctx.appTarget({}), named: said('your app (the forward target)'), confirm: false }
        : { url: t.url, named: said('an address the assistant named'), confirm: true };
  // The refusal goes to the model: English.
  checkAskable([{ label: said('Address'), field: `the address of ${english(d.named)}`, value: d.url }]);
  return d;
}

export interface ContractResult {
  environment: string;
  origins: { service: string; testWebhook: string };
  /** complete, or why the probe stopped early. */
  ended: string;
  message?: string;
  summary: string;
  counts: Record<string, number>;
  requests: number;
  /** The rows where the service differs from the spec: what the spec says and what the service did. */
  differs: { id: string; title: string; request: string; spec: string; service: string; notes: string[] }[];
  /** Where the spec is silent: what this service chose. */
  silent: { id: string; title: string; service: string }[];
}

export const checkContract: AssistantTool<Record<string, never>, ContractResult> = {
  name: 'wfs_check_contract',
  ...titled(said('Check the environment against the contract')),
  summary: 'Run probe-service against the environment in use (never billing) and list where it differs from the spec.',
  description: [
    'Runs probe-service against the environment in use: about 20 fixed requests that can never bill (sign-in, refused',
    "and malformed calls, a start that must be refused) and compares each answer's status, body kind and fields with",
    'the spec. Returns where the service differs from the spec, and what it chose where the spec is silent. It signs',
    "in with the user's credentials; use it when a handler or client behaves as if the service broke the contract.",
  ].join(' '),
  inputSchema: { type: 'object', additionalProperties: false, properties: {} },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  effect: 'reads',
  async run(_input, ctx) {
    const env = ctx.environment();
    const r = await ctx.contractCheck();
    return {
      environment: env.name,
      origins: { service: r.origins.service, testWebhook: r.origins.testWebhook },
      ended: r.outcome.ended,
      ...(r.outcome.message ? { message: r.outcome.message } : {}),
      summary: summaryLine(r),
      counts: { ...r.counts },
      requests: r.requests,
      differs: r.rows
        .filter((row) => row.verdict === 'differs')
        .map((row) => ({
          id: row.id,
          title: row.title,
          request: row.request,
          spec: row.spec,
          service: row.serviceText,
          notes: row.notes,
        })),
      silent: r.rows
        .filter((row) => row.verdict === 'silent')
        .map((row) => ({ id: row.id, title: row.title, service: row.serviceText })),
    };
  },
};

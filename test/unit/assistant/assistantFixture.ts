// A context for the assistant's tools in plain Node: a sandbox on port 0 (virtual clock) that signs, a real receiver
// with its history, an app at `appUrl`, and a person who answers billed starts as the test says. Deliveries are made
// by real requests to the receiver.
import type {
  AssistantContext,
  AssistantWorkflows,
  BilledStartDetails,
} from '../../../src/core/assistant/assistantContext';
import { ToolRefused } from '../../../src/core/assistant/assistantTool';
import { isLoopbackHost } from '../../../src/core/http/loopback';
import { DeliveryHistory } from '../../../src/core/webhooks/DeliveryHistory';
import { Receiver } from '../../../src/core/webhooks/Receiver';
import { Verifier } from '../../../src/core/webhooks/Verifier';
import { signedHereClaims } from '../../../src/core/webhooks/signedHereClaim';
import { rawRequest, type RawResponse } from '../helpers/rawHttp';
import { startSandbox, type SandboxFixture } from '../helpers/sandboxFixture';

export interface AssistantFixture {
  sandbox: SandboxFixture;
  history: DeliveryHistory;
  receiverUrl: string;
  ctx: AssistantContext;
  /** What the person is asked, and what they answer. */
  asked: BilledStartDetails[];
  answer: boolean | 'cannot-ask';
  /** The addresses the person is asked to audit, and what they answer. */
  askedAudits: string[];
  auditAnswer: boolean | 'cannot-ask';
  /** Starts the workflow client was asked to send. */
  starts: unknown[];
  trusted: boolean;
  appUrl?: string;
  /** A delivery signed by the sandbox over `body` (or over `signedBody`, to tamper), sent to the receiver. */
  deliver(body: object | string, o?: { signedBody?: string; token?: string | null }): Promise<RawResponse>;
  stop(): Promise<void>;
}

export async function assistantFixture(): Promise<AssistantFixture> {
  const sandbox = await startSandbox();
  const { info, clock } = sandbox;
  const history = new DeliveryHistory();
  const receiver = new Receiver({
    verifier: new Verifier({
      issuers: [{ issuer: info.issuer, audience: info.audience, jwksUrl: info.jwksUrl }],
      clock,
    }),
    clock,
    history,
  });
  const receiverUrl = await receiver.start();
  const signer = sandbox.sandbox.context.signer;
  const f: AssistantFixture = {
    sandbox,
    history,
    receiverUrl,
    asked: [],
    answer: 'cannot-ask',
    askedAudits: [],
    auditAnswer: 'cannot-ask',
    starts: [],
    trusted: true,
    ctx: undefined as unknown as AssistantContext,
    deliver: async (body, o = {}) => {
      const text = typeof body === 'string' ? body : JSON.stringify(body);
      const token = o.token === undefined ? await signer.sign(Buffer.from(o.signedBody ?? text)) : o.token;
      return rawRequest(receiverUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: text,
      });
    },
    stop: async () => {
      await receiver.stop();
      await sandbox.stop();
    },
  };
  const workflows: AssistantWorkflows = {
    find: async () => [],
    read: async (id) => {
      throw new ToolRefused(`no workflow ${id} here`);
    },
    start: async (req) => {
      f.starts.push(req);
      return {
        kind: 'started',
        correlationId: req.correlationId,
        result: {
          workflow: {
            workflowId: 'wf_test',
            runId: 'wfrun_test',
            status: 'processing',
            sessionId: req.sessionId,
            correlationId: req.correlationId,
            product: req.product,
            productType: req.product.service,
            productName: req.product.model,
          },
        },
      };
    },
  };
  f.ctx = {
    clock,
    deliveries: {
      description: 'the test receiver',
      records: async () => history.all(),
      body: (id) => history.body(id),
      replays: () => history.replayAnswers(),
      replayed: (answer) => history.replayAnswered(answer),
      onChange: (l) => {
        receiver.on('delivery', l);
        return () => void receiver.off('delivery', l);
      },
    },
    environment: () => ({ name: 'Sandbox', baseUrl: info.baseUrl, isSandbox: true }),
    checkSending: () => {
      if (!f.trusted) throw new ToolRefused('Restricted Mode: trust the workspace first.');
    },
    checkReach: (url) => {
      if (!isLoopbackHost(new URL(url).hostname)) throw new ToolRefused(`${url} is not on this machine.`);
    },
    appTarget: () => {
      if (!f.appUrl) throw new ToolRefused('No app: set --forward-to.');
      return f.appUrl;
    },
    targetTls: () => ({ caRemedy: 'environment' }),
    receiverUrl: () => receiverUrl,
    signer: async () => ({ issuer: info.issuer, audience: info.audience, jwksUrl: info.jwksUrl }),
    signFor: async (_url, body) => ({
      token: await signer.sign(body, { claims: signedHereClaims() }),
      done: () => undefined,
    }),
    workflows: async () => workflows,
    auditSetup: async () => ({
      signer: { sandboxUrl: info.baseUrl, sandboxSecret: info.controlSecret },
      done: () => undefined,
    }),
    contractCheck: async () => {
      throw new ToolRefused('not in this test');
    },
    readFixture: async () => {
      throw new ToolRefused('no fixtures here');
    },
    confirmBilledStart: async (d) => {
      f.asked.push(d);
      return f.answer;
    },
    confirmAuditTarget: async (url) => {
      f.askedAudits.push(url);
      return f.auditAnswer;
    },
    secrets: () => [info.controlSecret, info.password],
  };
  return f;
}

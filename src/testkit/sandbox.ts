// `startSandbox()`: the sandbox `wfs sandbox` runs (core's Sandbox), in the test's own process on a loopback port,
// with its ready line as data and a helper that starts a workflow with the demo credentials.
import { httpRequest, SIGN_IN_PATH, startWorkflowUrl, joinUrl } from '../core/http';
import { Sandbox } from '../core/sandbox';
import type { Workflow } from '../core/workflows';
import { onceOnly } from './onceOnly';
import type { SandboxReady, StartSandboxOptions, StartWorkflowOptions, TestSandbox } from './types';

/** Starts a sandbox on 127.0.0.1 (a free port unless `port` is given), its signing key made before it resolves. */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<TestSandbox> {
  const { port = 0, workflowDurationMs = 1000 } = options;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new RangeError(`startSandbox: port ${String(port)} is not a port: give 0 (a free one) to 65535`);
  if (typeof workflowDurationMs !== 'number' || !(workflowDurationMs >= 0) || workflowDurationMs > 86_400_000)
    throw new RangeError('startSandbox: workflowDurationMs is milliseconds, from 0 to 86400000 (one day)');
  const sandbox = new Sandbox({
    host: '127.0.0.1',
    port,
    workflowDurationSeconds: workflowDurationMs / 1000,
    accessTokenTtlSeconds: options.accessTokenTtlSeconds,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  await sandbox.start().catch((err: Error) => {
    throw new Error(`startSandbox: ${err.message}`);
  });
  // `wfs sandbox` names its key in the ready line, so it makes the key before printing it: so does this.
  const ready: SandboxReady = await sandbox.infoWithKey().catch(async (err: unknown) => {
    await sandbox.stop();
    throw err;
  });
  const close = onceOnly(() => sandbox.stop());
  return {
    ready,
    baseUrl: ready.baseUrl,
    controlSecret: ready.controlSecret,
    port: Number(new URL(ready.baseUrl).port),
    startWorkflow: (o) => startWorkflow(ready, o),
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** Signs in with the demo credentials, then starts the workflow: the two requests a client of the service makes. */
async function startWorkflow(ready: SandboxReady, o: StartWorkflowOptions = {}): Promise<Workflow> {
  const signIn = await httpRequest({
    method: 'POST',
    url: joinUrl(ready.baseUrl, SIGN_IN_PATH),
    json: { username: ready.username, password: ready.password },
    timeoutMs: 10_000,
  });
  const tokens = jsonOf(signIn.body) as { access_token?: unknown } | undefined;
  if (signIn.status !== 200 || typeof tokens?.access_token !== 'string')
    throw new Error(`startWorkflow: the sandbox refused to sign in (${signIn.status}${detailOf(signIn.body)})`);
  const product = o.product ?? ready.products[0]!;
  const started = await httpRequest({
    method: 'POST',
    url: startWorkflowUrl(ready.baseUrl, o.sessionId ?? ready.sessions.staged),
    headers: { authorization: `Bearer ${tokens.access_token}` },
    json: { product, ...(o.correlationId !== undefined ? { correlationId: o.correlationId } : {}) },
    timeoutMs: 10_000,
  });
  const workflow = (jsonOf(started.body) as { workflow?: Workflow } | undefined)?.workflow;
  if (started.status !== 202 || typeof workflow?.workflowId !== 'string')
    throw new Error(
      `startWorkflow: the sandbox answered ${started.status}${detailOf(started.body)}; products it starts: ${ready.products.map((p) => `${p.service}/${p.model}`).join(', ')}`,
    );
  return workflow;
}

function jsonOf(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** ": <the problem document's detail>", or nothing. */
function detailOf(body: Buffer): string {
  const detail = (jsonOf(body) as { detail?: unknown } | undefined)?.detail;
  return typeof detail === 'string' ? `: ${detail.slice(0, 500)}` : '';
}

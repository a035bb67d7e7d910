// `wfs mcp` serving: the assistant's tools (src/core/assistant) as an MCP server over stdio, or Streamable HTTP on
// loopback behind Host and Origin checks and a bearer token made at each start. Deliveries come from a running
// receiver's history file (read-only) or from a receiver of its own; a sandbox signs. The CLI command
// (src/cli/commands/mcpCommand.ts) reads the flags into McpOptions and loads this module only then, so no other
// command loads the MCP SDK.
import { randomBytes } from 'node:crypto';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { HistoryFileReader, type DeliverySource } from '../core/assistant';
import { ListenError, type TargetTls, TransportError } from '../core/http';
import { forwardEverything, type ForwardRule } from '../core/webhooks';
import { EXIT } from '../cli/exitCodes';
import { UsageError } from '../cli/flags';
import type { CliIO } from '../cli/output';
import { SandboxUnreachable } from '../cli/sandboxTarget';
import { CliAssistantContext } from './cliAssistantContext';
import { createToolServer, offeredTools } from './mcpToolServer';
import { startOwnReceiver, type OwnReceiver } from './ownReceiver';
import { NotOurSandbox, type SigningSandbox } from './signingSandbox';
import { billedSandboxWarning, chooseSigningSandbox, type SandboxChoice } from './chooseSigningSandbox';
import { keptSandboxState } from '../cli/sandboxKeptState';
import { SANDBOX_SECRET_ENV } from '../core/sandbox';

/** What `wfs mcp`'s flags asked for, checked (src/cli/commands/mcpCommand.ts). */
export interface McpOptions {
  /** --http: Streamable HTTP on 127.0.0.1 at this port (0: a free one); undefined: stdio. */
  httpPort?: number;
  /** --history: the deliveries of a running `wfs listen --log FILE`. */
  historyFile?: string;
  /** --receiver-url: with historyFile, that receiver's address. */
  receiverUrl?: string;
  /** --port: without historyFile, its own receiver's port. */
  port: number;
  forwardTo?: string;
  /** --forward-ca or --forward-insecure: the TLS of the app at forwardTo, its file read. */
  forwardTls?: TargetTls;
  allowRemote: boolean;
  /** --sandbox-url: a running `wfs sandbox`, with its control secret. */
  sandboxUrl?: string;
  sandboxSecret?: string;
  /** Without sandboxUrl: the port and workflow duration of the sandbox started here. */
  sandboxPort: number;
  workflowMs?: number;
  /** --sandbox-port or --workflow-duration: start a sandbox here even when WFS_BASE_URL names one. */
  startHere: boolean;
  readOnly: boolean;
}

type Say = (line: Record<string, unknown>) => void;
type Cleanup = (() => Promise<void> | void)[];

export async function serveMcp(o: McpOptions, io: CliIO): Promise<number> {
  // On stdio, stdout carries the protocol: this command's own lines go to stderr.
  const say: Say = o.httpPort === undefined ? (line) => io.printError(JSON.stringify(line) + '\n') : io.emit;
  const cleanup: Cleanup = [];
  let served = false;
  try {
    const choice = await signingSandbox(o, io, say);
    const sandbox = choice.sandbox;
    cleanup.push(() => sandbox.stop());
    const forward = forwardRule(o);
    const { deliveries, own } = await deliverySource(o, forward, sandbox, io, say, cleanup);
    const token = o.httpPort === undefined ? undefined : randomBytes(24).toString('base64url');
    const receiverUrl = own?.url ?? o.receiverUrl;
    const ctx = new CliAssistantContext({
      io,
      deliveries,
      sandbox,
      forward,
      receiverUrl,
      allowRemote: o.allowRemote,
      workspace: process.cwd(),
      extraSecrets: token ? [token] : [],
      baseUrlIsSandbox: choice.baseUrlIsSandbox,
      billedBecause: choice.billedBecause,
    });
    cleanup.push(() => ctx.dispose());
    if (ctx.serviceProblem)
      say({ event: 'warning', message: `the workflow tools cannot be used: ${ctx.serviceProblem}` });
    const billed = billedSandboxWarning(io.env, choice);
    if (billed) say({ event: 'warning', message: billed });
    const details = {
      tools: offeredTools({ readOnly: o.readOnly }).map((t) => t.name),
      environment: ctx.environment(),
      deliveries: deliveries.description,
      receiverUrl: receiverUrl ?? null,
      forwardTo: o.forwardTo ?? null,
      signer: { issuer: sandbox.trust.issuer, audience: sandbox.trust.audience, jwksUrl: sandbox.trust.jwksUrl },
    };
    const stopped = new Promise<void>((resolve) => cleanup.push(io.onStop(resolve)));
    if (o.httpPort === undefined) await serveStdio(ctx, o.readOnly, say, details, stopped);
    else await serveHttp(ctx, o.readOnly, io, o.httpPort, token!, details, stopped);
    served = true;
    return EXIT.ok;
  } finally {
    for (const c of cleanup.reverse()) await Promise.resolve(c()).catch(() => undefined);
    if (served) say({ event: 'stopped' });
  }
}

/** The sandbox that signs replays and events: a running one (--sandbox-url, or WFS_BASE_URL when it proves to be
 * one), else one started here. */
async function signingSandbox(o: McpOptions, io: CliIO, say: Say): Promise<SandboxChoice> {
  const { sandboxUrl } = o;
  try {
    return await chooseSigningSandbox({
      env: io.env,
      sandboxUrl,
      secret: o.sandboxSecret,
      startHere: o.startHere,
      sandboxPort: o.sandboxPort,
      workflowMs: o.workflowMs,
      keep: () => keptSandboxState(io.env, o.sandboxPort, (message) => say({ event: 'warning', message })),
    });
  } catch (err) {
    if (err instanceof ListenError) throw new UsageError(`--sandbox-port: ${err.message}`);
    if (err instanceof NotOurSandbox)
      throw new UsageError(
        `${sandboxUrl ? `--sandbox-url ${sandboxUrl}` : `WFS_BASE_URL ${io.env.WFS_BASE_URL}`}: not the \`wfs sandbox\` whose controlSecret ${SANDBOX_SECRET_ENV} holds (${err.message}): set ${SANDBOX_SECRET_ENV} from the ready line of the sandbox running there`,
      );
    if (err instanceof TransportError) throw new SandboxUnreachable(err, sandboxUrl ?? '', '--sandbox-url');
    if (sandboxUrl) throw new UsageError(`--sandbox-url ${sandboxUrl}: ${(err as Error).message}`);
    throw err;
  }
}

/** --forward-to as a rule: every verified delivery to the app, with its own TLS; a TLS failure names --forward-ca. */
function forwardRule(o: McpOptions): ForwardRule | undefined {
  if (o.forwardTo === undefined) return undefined;
  return forwardEverything(o.forwardTo, '--forward-to', {
    ...(o.forwardTls ? { tls: o.forwardTls } : {}),
    caFlag: '--forward-ca',
  });
}

/** Where the tools read deliveries: the history file of a running receiver, or a receiver of its own. */
async function deliverySource(
  o: McpOptions,
  forward: ForwardRule | undefined,
  sandbox: SigningSandbox,
  io: CliIO,
  say: Say,
  cleanup: Cleanup,
): Promise<{ deliveries: DeliverySource; own?: OwnReceiver }> {
  const historyFile = o.historyFile;
  if (historyFile) {
    const reader = new HistoryFileReader({ file: historyFile, clock: io.clock });
    // Read once now, so the first tool call answers from memory; later calls read only what was appended.
    const loaded = await reader.records().catch((err: Error) => {
      throw new UsageError(`--history ${historyFile}: ${err.message}`);
    });
    say({ event: 'history', file: historyFile, loaded: loaded.length });
    return { deliveries: reader };
  }
  let own: OwnReceiver;
  try {
    own = await startOwnReceiver({
      trust: sandbox.trust,
      clock: io.clock,
      port: o.port,
      forward,
      sandbox: sandbox.endpoint,
      warn: (message) => say({ event: 'warning', message }),
    });
  } catch (err) {
    if (err instanceof ListenError) throw new UsageError(`--port: ${err.message}`);
    throw err;
  }
  cleanup.push(() => own.stop());
  return { deliveries: own.deliveries, own };
}

async function serveStdio(
  ctx: CliAssistantContext,
  readOnly: boolean,
  say: Say,
  details: Record<string, unknown>,
  stopped: Promise<void>,
): Promise<void> {
  const server = createToolServer(ctx, { readOnly });
  const transport = new StdioServerTransport();
  // The client closing its end of stdin is how it ends the session.
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
    process.stdin.once('close', () => resolve());
  });
  await server.connect(transport);
  say({ event: 'ready', transport: 'stdio', ...details });
  await Promise.race([stopped, closed]);
  await server.close().catch(() => undefined);
}

async function serveHttp(
  ctx: CliAssistantContext,
  readOnly: boolean,
  io: CliIO,
  port: number,
  token: string,
  details: Record<string, unknown>,
  stopped: Promise<void>,
): Promise<void> {
  // Loaded only for --http: the SDK's HTTP transport (and the web server under it) is not read on stdio.
  const { McpHttpEndpoint } = await import('./mcpHttpEndpoint');
  const endpoint = new McpHttpEndpoint({
    port,
    token,
    createServer: () => createToolServer(ctx, { readOnly }),
    clock: io.clock,
    onRefused: (e) => io.emit({ event: 'refused', ...e }),
  });
  let url: string;
  try {
    url = await endpoint.start();
  } catch (err) {
    if (err instanceof ListenError) throw new UsageError(`--http ${port}: ${err.message}`);
    throw err;
  }
  // The token is said here, once, to whoever started the server; never in a log line.
  io.emit({ event: 'ready', transport: 'http', url, token, ...details });
  await stopped;
  await endpoint.stop();
}

// `wfs mcp`: the assistant's tools (src/core/assistant) as an MCP server, for Claude Code, Cursor, VS Code's agent
// mode and any MCP client (docs/agents.md). This command reads and checks the flags; the MCP face (src/mcp) serves,
// loaded only here so that no other command loads the MCP SDK.
import { isLoopbackHost } from '../../core/http';
import { SANDBOX_SECRET_ENV } from '../../core/sandbox';
import type { McpOptions } from '../../mcp';
import { SERVICE_ENV, type CommandSpec } from '../commandSpec';
import { durationFlag, intFlag, UsageError, type ParsedFlags } from '../flags';
import { EXIT } from '../exitCodes';
import { httpUrlValue } from '../httpUrlValue';
import { FORWARD_TLS_NAMES, targetTlsFlags, tlsFlagSpecs } from '../targetTlsFlags';
import { refuseCredentialsInAddressVariables } from '../cliEnvironment';
import type { CliIO } from '../output';
import { SandboxUnreachable, sandboxUnreachableEvent } from '../sandboxTarget';

export const mcpCommand: CommandSpec = {
  name: 'mcp',
  synopsis: [
    'mcp [--http PORT] [--history FILE [--receiver-url URL] | --port P]',
    '           [--forward-to URL [--forward-ca FILE | --forward-insecure]]',
    '           [--sandbox-url URL | --sandbox-port P [--workflow-duration DURATION]] [--allow-remote] [--read-only]',
  ].join('\n'),
  description: [
    "Serves the assistant's tools over MCP (docs/agents.md): the receiver's deliveries with their seven verification",
    'steps, refusals explained, replays to your app with its answer, signed events, the receiver audit, workflows, and',
    'the contract check. stdio by default (an MCP client starts it); its own lines then go to stderr.',
    'With --http PORT it serves Streamable HTTP at http://127.0.0.1:PORT/mcp and prints',
    '{"event":"ready","url":…,"token":…}: every request needs "Authorization: Bearer <token>" (new at each start), and',
    'a Host or Origin that is not this machine is refused.',
    'Deliveries: with --history FILE, those of a running `wfs listen --log FILE`, read without locking or changing the',
    'file; without it, a receiver of its own on loopback that trusts the signing sandbox and forwards to --forward-to.',
    'Replays and events are signed by a sandbox: --sandbox-url (a running `wfs sandbox`), else one started here.',
    'Workflows use WFS_BASE_URL and its credentials; without WFS_BASE_URL, the signing sandbox. A billed start is made',
    'only after the user confirms it through the client (MCP elicitation); a client that cannot ask gets the exact',
    '`wfs start` command for the user to run instead.',
  ].join('\n'),
  flags: {
    http: {
      type: 'string',
      value: 'PORT',
      description: 'serve Streamable HTTP on 127.0.0.1:PORT (0: a free one) instead of stdio',
    },
    history: {
      type: 'string',
      value: 'FILE',
      description: 'read the deliveries of a running `wfs listen --log FILE` (read-only)',
    },
    'receiver-url': {
      type: 'string',
      value: 'URL',
      description: "with --history: that receiver's address, so events can be sent to it",
    },
    port: {
      type: 'string',
      value: 'P',
      description: "without --history: its own receiver's port (default: a free one)",
    },
    'forward-to': {
      type: 'string',
      value: 'URL',
      description: 'your app: where replays go, and where its own receiver forwards verified deliveries',
    },
    ...tlsFlagSpecs(FORWARD_TLS_NAMES, '--forward-to'),
    'sandbox-url': {
      type: 'string',
      value: 'URL',
      description: `a running \`wfs sandbox\` whose key signs (its secret in ${SANDBOX_SECRET_ENV})`,
    },
    'sandbox-port': {
      type: 'string',
      value: 'P',
      description: 'without --sandbox-url: the port of the sandbox started here (your app trusts its key-set address)',
    },
    'workflow-duration': {
      type: 'string',
      value: 'DURATION',
      description:
        'without --sandbox-url: how long a workflow of the sandbox started here stays processing (500ms, 2s; default 20s)',
    },
    'allow-remote': {
      type: 'boolean',
      description: 'let tools send to --forward-to or audit a URL off this machine',
    },
    'read-only': { type: 'boolean', description: 'offer only the tools that read (nothing is sent or started)' },
  },
  env: [
    // The service is optional here: without it, the workflow tools use the signing sandbox.
    ['WFS_BASE_URL', 'the service the workflow tools use (default: the signing sandbox, with its demo account)'],
    ['WFS_USERNAME, WFS_PASSWORD', 'with WFS_BASE_URL: credentials; tokens are kept in memory only'],
    ...SERVICE_ENV.filter(([names]) => names !== 'WFS_BASE_URL' && names !== 'WFS_USERNAME, WFS_PASSWORD'),
    ['WFS_FIND_WORKFLOWS_URL', "Find Workflows address with {correlationId}, on WFS_BASE_URL's origin"],
    ['WFS_PROBLEMS_BASE', "for the contract check: the base of the service's problem types (default: WFS_BASE_URL)"],
    [SANDBOX_SECRET_ENV, 'with --sandbox-url: that sandbox\'s "controlSecret"'],
  ],
  exits: [[EXIT.interrupted, 'a second SIGINT, SIGTERM or SIGHUP while it was stopping']],
  async run(flags, io) {
    if (flags.values.has('http')) return serve(flags, io);
    // On stdio, stdout is the client's: an error is said on stderr, as every other line of this command.
    try {
      return await serve(flags, io);
    } catch (err) {
      if (err instanceof SandboxUnreachable) {
        io.printError(JSON.stringify(sandboxUnreachableEvent(err)) + '\n');
        return EXIT.failed;
      }
      const usage = err instanceof UsageError;
      io.printError(
        JSON.stringify({ event: 'error', kind: usage ? 'usage' : 'internal', message: (err as Error).message }) + '\n',
      );
      return usage ? EXIT.usage : EXIT.failed;
    }
  },
};

async function serve(flags: ParsedFlags, io: CliIO): Promise<number> {
  const options = mcpOptions(flags, io.env);
  const { serveMcp } = await import('../../mcp');
  return serveMcp(options, io);
}

/** The flags, checked: every mistake a usage error before anything starts. */
function mcpOptions(flags: ParsedFlags, env: NodeJS.ProcessEnv): McpOptions {
  // A password inside WFS_BASE_URL would reach the model (wfs_environment) and the ready line: refused at start,
  // where any other problem of the service's address is only a warning.
  refuseCredentialsInAddressVariables(env);
  const httpPort = intFlag(flags, 'http', 0, 65535);
  const historyFile = flags.values.get('history');
  const receiverUrl = flags.values.get('receiver-url');
  if (receiverUrl !== undefined) {
    httpUrlValue('--receiver-url', receiverUrl);
    if (!historyFile)
      throw new UsageError('--receiver-url goes with --history: without it, wfs mcp runs its own receiver');
    if (!isLoopbackHost(new URL(receiverUrl).hostname))
      throw new UsageError('--receiver-url must be on this machine: the address `wfs listen` printed');
  }
  if (historyFile && flags.values.has('port'))
    throw new UsageError("--port is its own receiver's port: with --history, the deliveries are that receiver's");
  const port = intFlag(flags, 'port', 0, 65535) ?? 0;
  const forwardTo = flags.values.get('forward-to');
  const allowRemote = flags.switches.has('allow-remote');
  if (forwardTo !== undefined) {
    httpUrlValue('--forward-to', forwardTo);
    if (!isLoopbackHost(new URL(forwardTo).hostname) && !allowRemote)
      throw new UsageError(
        `--forward-to ${new URL(forwardTo).host} is not on this machine: add --allow-remote to send signed deliveries there`,
      );
  }
  const forwardTls = targetTlsFlags(flags, forwardTo, FORWARD_TLS_NAMES, '--forward-to');
  const sandboxUrl = flags.values.get('sandbox-url');
  if (sandboxUrl && flags.values.has('sandbox-port')) throw new UsageError('--sandbox-url excludes --sandbox-port');
  if (sandboxUrl) httpUrlValue('--sandbox-url', sandboxUrl, "the sandbox's http(s) baseUrl");
  const secret = env[SANDBOX_SECRET_ENV]?.trim();
  if (sandboxUrl && !secret)
    throw new UsageError(
      `--sandbox-url ${sandboxUrl}: ${SANDBOX_SECRET_ENV} is not set, and the sandbox's control API needs its secret: set it to the "controlSecret" of that sandbox's ready line`,
    );
  if (sandboxUrl && flags.values.has('workflow-duration'))
    throw new UsageError(
      '--workflow-duration is for the sandbox started here: give it to `wfs sandbox` at --sandbox-url',
    );
  const sandboxPort = intFlag(flags, 'sandbox-port', 0, 65535) ?? 0;
  const workflowMs = durationFlag(flags, 'workflow-duration', 's', 0, 86_400_000);
  const readOnly = flags.switches.has('read-only');
  return {
    httpPort,
    historyFile,
    receiverUrl,
    port,
    forwardTo,
    ...(forwardTls ? { forwardTls } : {}),
    allowRemote,
    sandboxUrl,
    sandboxSecret: secret,
    sandboxPort,
    workflowMs,
    startHere: flags.values.has('sandbox-port') || workflowMs !== undefined,
    readOnly,
  };
}

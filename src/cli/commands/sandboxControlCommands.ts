// `wfs sandbox fault`, `wfs sandbox faults` and `wfs sandbox rotate-key`: a running sandbox's control API from the
// command line, so rehearsing a 429 or a billed 500 needs no hand-written curl. Each sends one request with the
// sandbox's control secret (WFS_SANDBOX_SECRET) and prints one line.
import { SandboxControlClient } from '../../core/sandbox/sandboxControlClient';
import { TransportError } from '../../core/http/request';
import { transportErrorEvent } from '../transportErrorEvent';
import { FAULT_KINDS } from '../../core/sandbox/sandboxFaults';
import type { CommandSpec } from '../commandSpec';
import { closest, intFlag, requiredFlag, UsageError, type FlagSpecs, type ParsedFlags } from '../flags';
import { httpUrlValue } from '../httpUrlValue';
import type { CliIO } from '../output';
import { sandboxSecretFromEnv, sandboxSecretHelp } from '../sandboxSecret';
import { errnoInWords } from '../errnoWords';

const SANDBOX_URL: FlagSpecs = {
  'sandbox-url': {
    type: 'string',
    value: 'URL',
    description: 'the running sandbox: the "baseUrl" of its ready line (required)',
  },
};

const ENV = [sandboxSecretHelp('--sandbox-url')];

const EXITS: [number, string][] = [
  [1, 'nothing answered at --sandbox-url, or the sandbox refused the request (the error line says why)'],
  [2, 'usage error, or WFS_SANDBOX_SECRET not set (nothing sent)'],
];

/** Runs `call` against the sandbox at --sandbox-url; a sandbox that cannot be reached is one line and exit 1. */
async function withSandbox(
  flags: ParsedFlags,
  io: CliIO,
  call: (sandbox: SandboxControlClient) => Promise<Record<string, unknown>>,
): Promise<number> {
  const url = httpUrlValue(
    '--sandbox-url',
    requiredFlag(flags, 'sandbox-url', 'the "baseUrl" of the sandbox\'s ready line, e.g. http://127.0.0.1:4010'),
    "the sandbox's http(s) baseUrl",
  );
  const secret = sandboxSecretFromEnv(io.env, `--sandbox-url ${url}`);
  try {
    io.emit(await call(new SandboxControlClient(url, secret)));
    return 0;
  } catch (err) {
    const origin = new URL(url).origin;
    if (err instanceof TransportError) {
      io.emit(
        transportErrorEvent(
          err,
          `${errnoInWords(err.code, origin) ?? `could not reach ${origin} (${err.reason})`}: is \`wfs sandbox\` running there? Its ready line gives its baseUrl.`,
        ),
      );
      return 1;
    }
    io.emit({ event: 'error', kind: 'sandbox-refused', message: (err as Error).message });
    return 1;
  }
}

export const sandboxFaultCommand: CommandSpec = {
  name: 'sandbox fault',
  synopsis: 'sandbox fault KIND --sandbox-url URL [--count N] [--after N]',
  description: [
    'Injects a fault into a running sandbox, to rehearse how your code meets it: the next COUNT requests it applies to',
    'fail that way. Prints {"event":"fault-injected","fault":…,"count":…,"pending":{…}} (every fault still to come).',
    `Kinds: ${FAULT_KINDS.join(', ')}.`,
  ].join('\n'),
  argument: { value: 'KIND', description: `the fault: ${FAULT_KINDS.join(', ')}` },
  flags: {
    ...SANDBOX_URL,
    count: { type: 'string', value: 'N', description: 'how many requests it applies to, 1 to 1000 (default 1)' },
    after: {
      type: 'string',
      value: 'N',
      description:
        'throttle only: let N requests through first (e.g. 1: the sign-in passes, the call after it gets 429)',
    },
  },
  env: ENV,
  exits: EXITS,
  async run(flags, io) {
    const fault = flags.argument ?? '';
    if (!(FAULT_KINDS as readonly string[]).includes(fault)) {
      const near = closest(fault, FAULT_KINDS);
      throw new UsageError(
        `unknown fault "${fault}"${near ? ` (did you mean ${near}?)` : ''}: one of ${FAULT_KINDS.join(', ')}`,
      );
    }
    const count = intFlag(flags, 'count', 1, 1000) ?? 1;
    const after = intFlag(flags, 'after', 0, 1000);
    if (after !== undefined && fault !== 'throttle') throw new UsageError('--after applies only to the throttle fault');
    return withSandbox(flags, io, async (s) => ({
      event: 'fault-injected',
      fault,
      count,
      ...(after === undefined ? {} : { after }),
      pending: await s.injectFault(fault, count, after),
    }));
  },
};

export const sandboxFaultsCommand: CommandSpec = {
  name: 'sandbox faults',
  synopsis: 'sandbox faults --sandbox-url URL [--clear]',
  description: [
    'Lists the faults a running sandbox still has to apply, each with its count left:',
    '{"event":"faults","pending":{…},"kinds":[…]}. With --clear it clears them all first:',
    '{"event":"faults-cleared","pending":{}}.',
  ].join('\n'),
  flags: { ...SANDBOX_URL, clear: { type: 'boolean', description: 'clear every pending fault' } },
  env: ENV,
  exits: EXITS,
  async run(flags, io) {
    return withSandbox(flags, io, async (s) => {
      if (flags.switches.has('clear')) {
        await s.clearFaults();
        return { event: 'faults-cleared', pending: (await s.faults()).pending };
      }
      return { event: 'faults', ...(await s.faults()) };
    });
  },
};

export const sandboxRotateKeyCommand: CommandSpec = {
  name: 'sandbox rotate-key',
  synopsis: 'sandbox rotate-key --sandbox-url URL',
  description: [
    'Makes a running sandbox sign with a new key from now on; the previous key stays in its key set. Rehearses a key',
    'rotation: your receiver must fetch the key set again for the new kid. Prints {"event":"key-rotated","kid":…}.',
  ].join('\n'),
  flags: SANDBOX_URL,
  env: ENV,
  exits: EXITS,
  async run(flags, io) {
    return withSandbox(flags, io, async (s) => ({ event: 'key-rotated', kid: await s.rotateKey() }));
  },
};

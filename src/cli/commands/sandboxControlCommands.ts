// `wfs sandbox fault`, `wfs sandbox faults` and `wfs sandbox rotate-key`: a running sandbox's control API from the
// command line, so rehearsing a 429 or a billed 500 needs no hand-written curl. Each acts on the environment's
// sandbox (the `export` line `wfs sandbox` prints) unless --sandbox-url names another (sandboxTarget.ts), sends one
// request with its control secret, and prints one line.
import { FAULT_KINDS, SandboxControlClient } from '../../core/sandbox';
import { TransportError } from '../../core/http';
import { EXIT } from '../exitCodes';
import type { CommandSpec } from '../commandSpec';
import { closest, intFlag, type FlagSpecs, type ParsedFlags } from '../flags';
import type { CliIO } from '../output';
import { httpUrlValue } from '../httpUrlValue';
import { sandboxTarget, sandboxTargetHelp, sandboxUnreachable } from '../sandboxTarget';

const SANDBOX_URL: FlagSpecs = {
  'sandbox-url': {
    type: 'string',
    value: 'URL',
    description: 'another running sandbox than WFS_BASE_URL\'s: the "baseUrl" of its ready line',
  },
};

const ENV = sandboxTargetHelp('--sandbox-url');

const EXITS: [number, string][] = [
  [EXIT.failed, 'nothing answered at the sandbox, or the sandbox refused the request (the error line says why)'],
  [
    EXIT.usage,
    'usage error, or no sandbox named (WFS_BASE_URL and WFS_SANDBOX_SECRET, or --sandbox-url): nothing sent',
  ],
];

/** Runs `call` against the sandbox the flag or the environment names; a sandbox that cannot be reached is
 * SandboxUnreachable. `wrong`: what the command itself found wrong, said in the same message as a sandbox not named. */
async function withSandbox(
  flags: ParsedFlags,
  io: CliIO,
  call: (sandbox: SandboxControlClient) => Promise<Record<string, unknown>>,
  wrong: string[] = [],
): Promise<number> {
  const target = sandboxTarget(io.env, '--sandbox-url', flags.values.get('sandbox-url'), wrong);
  try {
    io.emit(await call(new SandboxControlClient(target.baseUrl, target.secret)));
    return EXIT.ok;
  } catch (err) {
    if (err instanceof TransportError) throw sandboxUnreachable(err, target);
    io.emit({ event: 'error', kind: 'sandbox-refused', message: (err as Error).message });
    return EXIT.failed;
  }
}

export const sandboxFaultCommand: CommandSpec = {
  name: 'sandbox fault',
  synopsis: 'sandbox fault KIND [--count N] [--after N] [--sandbox-url URL]',
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
    const wrong: string[] = [];
    if (!(FAULT_KINDS as readonly string[]).includes(fault)) {
      const near = closest(fault, FAULT_KINDS);
      wrong.push(`unknown fault "${fault}"${near ? ` (did you mean ${near}?)` : ''}: one of ${FAULT_KINDS.join(', ')}`);
    }
    const count = intFlag(flags, 'count', 1, 1000) ?? 1;
    const after = intFlag(flags, 'after', 0, 1000);
    if (after !== undefined && fault !== 'throttle') wrong.push('--after applies only to the throttle fault');
    return withSandbox(
      flags,
      io,
      async (s) => ({
        event: 'fault-injected',
        fault,
        count,
        ...(after === undefined ? {} : { after }),
        pending: await s.injectFault(fault, count, after),
      }),
      wrong,
    );
  },
};

export const sandboxFaultsCommand: CommandSpec = {
  name: 'sandbox faults',
  synopsis: 'sandbox faults [--clear] [--sandbox-url URL]',
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
  synopsis: 'sandbox rotate-key [--sandbox-url URL]',
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

const WEBHOOK_ACTIONS = ['list', 'add', 'remove'];

export const sandboxWebhooksCommand: CommandSpec = {
  name: 'sandbox webhooks',
  synopsis: 'sandbox webhooks list|add|remove [--url URL] [--sandbox-url URL]',
  description: [
    'The addresses a running sandbox sends its workflow events to (signed webhooks, as the service sends them).',
    '`wfs listen --trust-sandbox` registers its own address while it runs; this is for any other receiver, such as',
    'your app. Prints {"event":"webhooks","endpoints":[…]}: every address registered after the change.',
  ].join('\n'),
  argument: { value: 'list|add|remove', description: 'list the addresses, or add or remove --url' },
  flags: {
    ...SANDBOX_URL,
    url: { type: 'string', value: 'URL', description: 'with add and remove: the http(s) address, e.g. your app' },
  },
  env: ENV,
  exits: EXITS,
  async run(flags, io) {
    const action = flags.argument ?? '';
    const url = flags.values.get('url');
    const wrong: string[] = [];
    if (!WEBHOOK_ACTIONS.includes(action)) {
      const near = closest(action, WEBHOOK_ACTIONS);
      wrong.push(`unknown action "${action}"${near ? ` (did you mean ${near}?)` : ''}: one of list, add, remove`);
    } else if (action !== 'list' && url === undefined)
      wrong.push(`${action} needs --url URL: the address to ${action}`);
    else if (action === 'list' && url !== undefined) wrong.push('--url applies to add and remove');
    if (url !== undefined) {
      try {
        httpUrlValue('--url', url);
      } catch (err) {
        wrong.push((err as Error).message);
      }
    }
    return withSandbox(
      flags,
      io,
      async (s) => ({
        event: 'webhooks',
        endpoints:
          action === 'add'
            ? await s.addWebhook(url!)
            : action === 'remove'
              ? await s.removeWebhook(url!)
              : await s.webhooks(),
      }),
      wrong,
    );
  },
};

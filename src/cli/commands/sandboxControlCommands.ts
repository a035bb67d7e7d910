// `wfs sandbox fault`, `wfs sandbox faults` and `wfs sandbox rotate-key`: a running sandbox's control API from the
// command line, so rehearsing a 429 or a billed 500 needs no hand-written curl. Each acts on the environment's
// sandbox (the `export` line `wfs sandbox` prints) unless --sandbox-url names another (sandboxTarget.ts), sends one
// request with its control secret, and prints one line.
import {
  DELIVERY_FAULT_KINDS,
  FAULT_KINDS,
  isDeliveryFaultKind,
  MAX_FAULT_DELAY_MS,
  MAX_SEED,
  MAX_STORM_FACTOR,
  SandboxControlClient,
  withDeliveryFault,
  type DeliveryFaultKind,
  type DeliveryFaultRequest,
} from '../../core/sandbox';
import { TransportError } from '../../core/http';
import { EXIT } from '../exitCodes';
import type { CommandSpec } from '../commandSpec';
import { closest, durationFlag, intFlag, type FlagSpecs, type ParsedFlags } from '../flags';
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

const ALL_KINDS = [...FAULT_KINDS, ...DELIVERY_FAULT_KINDS];

/** Flags that shape a delivery fault (duplicate, reorder, delay, retry-storm, burst). */
const DELIVERY_FLAGS: FlagSpecs = {
  seed: {
    type: 'string',
    value: 'N',
    description: 'delivery faults: the seed, 0 to 4294967295, so a run repeats exactly (default: a new one, printed)',
  },
  'fresh-token': {
    type: 'boolean',
    description: "duplicate: each copy gets a token of its own (default: the original's)",
  },
  delay: { type: 'string', value: 'DURATION', description: 'delay: hold each delivery back this long, e.g. 2s' },
  'max-delay': {
    type: 'string',
    value: 'DURATION',
    description: 'delay: a seeded random wait between --delay and this, e.g. --delay 500ms --max-delay 3s',
  },
  factor: {
    type: 'string',
    value: 'N',
    description: 'retry-storm: divide the retry schedule by N, 2 to 1000 (default 10)',
  },
  to: {
    type: 'string',
    value: 'all|workflow|test',
    description: 'delivery faults: which deliveries they apply to, workflow events or test webhooks (default all)',
  },
};

/** A delivery fault's request from the flags, checked by core before anything is sent (a refusal is a usage error). */
function deliveryRequest(fault: DeliveryFaultKind, flags: ParsedFlags, wrong: string[]): DeliveryFaultRequest {
  const delayMs = durationFlag(flags, 'delay', 'ms', 0, MAX_FAULT_DELAY_MS);
  const maxDelayMs = durationFlag(flags, 'max-delay', 'ms', 0, MAX_FAULT_DELAY_MS);
  const request: DeliveryFaultRequest = {
    fault,
    ...defined('count', intFlag(flags, 'count', 1, 1000)),
    ...defined('seed', intFlag(flags, 'seed', 0, MAX_SEED)),
    ...(flags.switches.has('fresh-token') ? { freshToken: true } : {}),
    ...defined('delayMs', delayMs),
    ...defined('maxDelayMs', maxDelayMs),
    ...defined('factor', intFlag(flags, 'factor', 2, MAX_STORM_FACTOR)),
    ...defined('to', flags.values.get('to')),
  };
  try {
    withDeliveryFault(undefined, request);
  } catch (err) {
    const words = flagWords((err as Error).message);
    wrong.push(words.startsWith(fault) ? words : `${fault}: ${words}`);
  }
  if (fault !== 'delay' && (delayMs !== undefined || maxDelayMs !== undefined))
    wrong.push('--delay and --max-delay apply only to the delay fault');
  if (fault !== 'retry-storm' && request.factor !== undefined) wrong.push('--factor applies only to retry-storm');
  return request;
}

function defined<K extends string, V>(key: K, v: V | undefined): { [k in K]?: V } {
  return (v === undefined ? {} : { [key]: v }) as { [k in K]?: V };
}

/** Core's words name the request's fields; the command line names its flags. */
function flagWords(message: string): string {
  return message
    .replace(/\bmaxDelayMs\b/g, '--max-delay')
    .replace(/\bdelayMs\b/g, '--delay')
    .replace(/\bfreshToken\b/g, '--fresh-token')
    .replace(/\b(count|seed|factor|to)\b must/g, '--$1 must')
    .replace(/^(count|freshToken|to) applies/, '--$1 applies');
}

export const sandboxFaultCommand: CommandSpec = {
  name: 'sandbox fault',
  synopsis:
    'sandbox fault KIND [--count N] [--after N] [--seed N] [--fresh-token] [--delay DURATION] [--max-delay DURATION] [--factor N] [--to all|workflow|test] [--sandbox-url URL]',
  description: [
    'Injects a fault into a running sandbox, to rehearse how your code meets it. API faults: the next COUNT requests',
    'it applies to fail that way. Prints {"event":"fault-injected","fault":…,"count":…,"pending":{…}} (every fault',
    'still to come).',
    `API kinds: ${FAULT_KINDS.join(', ')}.`,
    'Delivery faults change what the sandbox sends (workflow events and test webhooks) until cleared (wfs sandbox',
    "faults --clear): duplicate (--count copies, --fresh-token), reorder (a workflow's events held until it ends, then",
    'sent in another order), delay (--delay, --max-delay), retry-storm (after a 5xx, the retry schedule divided by',
    '--factor), burst (--count copies at once). A seed makes a run repeat exactly. Each delivery says what was done',
    'in its X-Wfs-Sandbox-Fault header, which wfs listen shows. Prints {"event":"fault-injected","fault":…,',
    '"delivery":{…}} (the whole setting, its seed included).',
  ].join('\n'),
  argument: { value: 'KIND', description: `the fault: ${ALL_KINDS.join(', ')}` },
  flags: {
    ...SANDBOX_URL,
    count: {
      type: 'string',
      value: 'N',
      description:
        'API faults: how many requests it applies to, 1 to 1000 (default 1); duplicate: copies (default 1); burst: deliveries at once (default 5)',
    },
    after: {
      type: 'string',
      value: 'N',
      description:
        'throttle only: let N requests through first (e.g. 1: the sign-in passes, the call after it gets 429)',
    },
    ...DELIVERY_FLAGS,
  },
  env: ENV,
  exits: EXITS,
  async run(flags, io) {
    const fault = flags.argument ?? '';
    const wrong: string[] = [];
    if (isDeliveryFaultKind(fault)) return deliveryFault(fault, flags, io, wrong);
    if (!(FAULT_KINDS as readonly string[]).includes(fault)) {
      const near = closest(fault, ALL_KINDS);
      wrong.push(`unknown fault "${fault}"${near ? ` (did you mean ${near}?)` : ''}: one of ${ALL_KINDS.join(', ')}`);
    }
    const count = intFlag(flags, 'count', 1, 1000) ?? 1;
    const after = intFlag(flags, 'after', 0, 1000);
    if (after !== undefined && fault !== 'throttle') wrong.push('--after applies only to the throttle fault');
    const extra = Object.keys(DELIVERY_FLAGS).filter((f) => flags.values.has(f) || flags.switches.has(f));
    if (extra.length)
      wrong.push(`--${extra[0]} applies only to the delivery faults (${DELIVERY_FAULT_KINDS.join(', ')})`);
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

function deliveryFault(fault: DeliveryFaultKind, flags: ParsedFlags, io: CliIO, wrong: string[]): Promise<number> {
  if (flags.values.has('after')) wrong.push('--after applies only to the throttle fault');
  const request = deliveryRequest(fault, flags, wrong);
  return withSandbox(
    flags,
    io,
    async (s) => ({ event: 'fault-injected', fault, ...(await s.addDeliveryFault(request)) }),
    wrong,
  );
}

export const sandboxFaultsCommand: CommandSpec = {
  name: 'sandbox faults',
  synopsis: 'sandbox faults [--clear] [--sandbox-url URL]',
  description: [
    'Lists the faults a running sandbox still has to apply, each with its count left, and the delivery faults in',
    'force: {"event":"faults","pending":{…},"kinds":[…],"delivery":{…}|null,"deliveryKinds":[…]}. With --clear it',
    'clears them all first, delivery faults included: {"event":"faults-cleared","pending":{},"delivery":null}.',
  ].join('\n'),
  flags: { ...SANDBOX_URL, clear: { type: 'boolean', description: 'clear every pending fault' } },
  env: ENV,
  exits: EXITS,
  async run(flags, io) {
    return withSandbox(flags, io, async (s) => {
      if (flags.switches.has('clear')) {
        await s.clearFaults();
        const left = await s.faults();
        return { event: 'faults-cleared', pending: left.pending, delivery: left.delivery };
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

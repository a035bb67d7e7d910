// `wfs`: the core, headless, for scripts and CI. Public interface: README "CLI" and `wfs <command> --help`.
// This module stays light: it parses, prints help and the version, and loads a command's code (commandList.ts) only to
// run it, so `wfs --help` never evaluates undici, jose or the sandbox.
import { TOOLKIT_VERSION } from '../core';
import { COMMANDS } from './commandList';
import { commandHelp, SERVICE_ENV, helpTable } from './commandSpec';
import { closest } from './flags';
import { chooseFace, processIO, type CliIO } from './output';
import { EXIT } from './exitCodes';

function overview(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length)) + 2;
  return [
    'usage: wfs <command> [flags] [--json | --human]',
    '',
    'commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    "environment (read by start, status, find and test-webhook; each command's --help lists what it reads):",
    ...helpTable(SERVICE_ENV),
    '',
    'example, against a local sandbox (its first line gives its baseUrl, username and password):',
    '  wfs sandbox --port 4010 &',
    '  export WFS_BASE_URL=http://127.0.0.1:4010 WFS_USERNAME=demo WFS_PASSWORD=demo-password',
    '  wfs start --session sess-demo-staged --service Appraisal --model Standard',
    '',
    'Run `wfs <command> --help` for its flags, environment and exit codes; `wfs --version` for the version.',
    'On a terminal the output is text for people. Piped, or with --json, it is one JSON line per event on stdout (a stable',
    'format: fields are never removed or renamed), and a failure ends with one {"event":"error",…} line. --human forces text.',
    '',
  ].join('\n');
}

/** --json and --human choose the output face (chooseFace) and may stand anywhere; no command sees them. */
function withoutFaceFlags(argv: string[]): string[] {
  return argv.filter((a) => a !== '--json' && a !== '--human');
}

const isVersion = (word: string | undefined) => word === '--version' || word === '-v' || word === 'version';

/** `wfs --help` and `wfs --version` alone: their text, known before any stream or command exists. */
export function plainAnswer(argv: string[]): string | undefined {
  const args = withoutFaceFlags(argv);
  if (args.length !== 1) return undefined;
  if (isVersion(args[0])) return `${TOOLKIT_VERSION}\n`;
  if (args[0] === '--help' || args[0] === '-h' || args[0] === 'help') return overview();
  return undefined;
}

export async function main(argv: string[], io: CliIO = processIO()): Promise<number> {
  const { emit } = io;
  const args = withoutFaceFlags(argv);
  // A command named by two words (`keys generate`) takes its second word off the flags.
  const twoWords = args.length > 1 && COMMANDS.some((c) => c.name === `${args[0]} ${args[1]}`);
  const [name, ...rest] = twoWords ? [`${args[0]} ${args[1]}`, ...args.slice(2)] : args;
  if (isVersion(name)) {
    io.print(`${TOOLKIT_VERSION}\n`);
    return EXIT.ok;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    const twoWordsAbout = rest.length > 1 && COMMANDS.find((c) => c.name === `${rest[0]} ${rest[1]}`);
    const about = twoWordsAbout || (rest[0] && COMMANDS.find((c) => c.name === rest[0]));
    io.print(about ? commandHelp(await about.load()) : overview());
    return EXIT.ok;
  }
  if (!name) {
    io.printError(overview());
    return EXIT.usage;
  }
  // `wfs sandbox faultz`: a word after a command that has commands of two words is one of them, mistyped.
  const siblings = COMMANDS.filter((c) => c.name.startsWith(`${name} `)).map((c) => c.name.slice(name.length + 1));
  if (!twoWords && siblings.length && rest[0] !== undefined && !rest[0].startsWith('-')) {
    const near = closest(rest[0], siblings);
    emit({
      event: 'error',
      kind: 'usage',
      message: `unknown command "${name} ${rest[0]}"${near ? ` (did you mean \`wfs ${name} ${near}\`?)` : ''} (commands: ${siblings.map((w) => `${name} ${w}`).join(', ')})`,
    });
    return EXIT.usage;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) {
    const near = closest(
      name,
      COMMANDS.map((c) => c.name),
    );
    emit({
      event: 'error',
      kind: 'usage',
      message: `unknown command "${name}"${near ? ` (did you mean \`wfs ${near}\`?)` : ''} (commands: ${COMMANDS.map((c) => c.name).join(', ')})`,
    });
    return EXIT.usage;
  }
  const command = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    io.print(commandHelp(command));
    return EXIT.ok;
  }
  const { runCommand } = await import('./runCommand');
  return runCommand(command, rest, io);
}

/**
 * The process around main(): it stays alive until the command has an outcome (our clock's timers are unref'd, so a
 * pending backoff or poll alone would not keep it), and it ends with the command's own exit code. SIGINT/SIGTERM/SIGHUP
 * stop
 * a command that listens for them (sandbox, listen, status --follow); any other is ended at once with an error line
 * and 130, as is a second signal. A closed stdout stops the first kind too.
 */
export async function runProcess(argv: string[]): Promise<void> {
  const hold = setInterval(() => undefined, 1 << 30);
  const base = processIO(chooseFace(argv, process.stdout.isTTY === true));
  const stopListeners = new Set<() => void>();
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping || stopListeners.size === 0) {
      base.progress?.(undefined);
      base.emit({ event: 'error', kind: 'interrupted', message: `stopped by ${signal} before the command finished` });
      exitAfterFlush(EXIT.interrupted);
      return;
    }
    stopping = true;
    for (const l of [...stopListeners]) l();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // The terminal closed (its tab, an ssh session): Node's default would end the process at once, its history's
  // lock left behind. A hang-up is a request to stop like the others.
  process.on('SIGHUP', onSignal);
  // The reader went away (`wfs listen | head -n 2`): the next line fails with EPIPE, which unheard would crash the
  // process with a stack trace. Nothing more can be said there, so a command that runs until stopped stops as on
  // SIGTERM (the receiver closed, its history flushed); any other finishes its work unheard, with its own exit code.
  process.stdout.on('error', () => {
    if (stopping) return;
    stopping = true;
    for (const l of [...stopListeners]) l();
  });
  process.stderr.on('error', () => undefined);
  const io: CliIO = {
    ...base,
    onStop: (listener) => {
      stopListeners.add(listener);
      return () => stopListeners.delete(listener);
    },
  };
  let code: number;
  try {
    code = await main(argv, io);
  } catch (err) {
    process.stderr.write(String((err as Error)?.stack ?? err) + '\n');
    code = EXIT.failed;
  }
  clearInterval(hold);
  base.progress?.(undefined);
  exitAfterFlush(code);
}

/** Exits once stdout and stderr have taken everything written, so the last JSON line is never cut off. */
function exitAfterFlush(code: number): void {
  process.exitCode = code;
  let pending = 2;
  const done = () => --pending === 0 && process.exit(code);
  process.stdout.write('', done);
  process.stderr.write('', done);
}

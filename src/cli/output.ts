// The CLI speaks JSON lines on stdout (docs/design.md). Commands get their I/O injected so tests can run them
// in-process.
import { saidsLeftOut, withoutSaids } from '../core';
import { SystemClock, type Clock } from '../core/time';
import { MAX_STDIN_BYTES, readBoundedText } from './boundedRead';
import { renderHuman } from './render/humanText';
import { colourEnabled, makeStyle } from './render/style';
import { ProgressLine, type ProgressText } from './render/progressLine';

/** The user stopped a command before it sent anything that matters: exit 130, nothing done. */
export class StoppedBeforeSent extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoppedBeforeSent';
  }
}

export type Emit = (line: Record<string, unknown>) => void;

export interface CliIO {
  emit: Emit;
  /** Plain text for people: help and the version. */
  print: (text: string) => void;
  printError: (text: string) => void;
  env: NodeJS.ProcessEnv;
  clock: Clock;
  readStdin: () => string;
  /** Registers a listener for the user's request to stop (SIGINT/SIGTERM/SIGHUP in the real CLI); returns its removal.
   * */
  onStop: (listener: () => void) => () => void;
  /** What the command is waiting for, as a spinner line (undefined clears it); only text on a terminal shows it. */
  progress?: (text: ProgressText | undefined) => void;
}

const emitToStdout: Emit = (line) => {
  process.stdout.write(JSON.stringify(line, withoutSaids) + '\n');
};

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** 'json': today's JSON lines, the stable format for scripts; 'human': text for a person at a terminal. */
export type Face = 'json' | 'human';

/** The face for this run: --json or --human if given, else text on a terminal and JSON when stdout is not one. */
export function chooseFace(argv: readonly string[], stdoutIsTTY: boolean): Face {
  if (argv.includes('--json')) return 'json';
  if (argv.includes('--human')) return 'human';
  return stdoutIsTTY ? 'human' : 'json';
}

/** The same events, as text: each line through its renderer, errors and warnings on stderr. */
function humanEmit(
  env: NodeJS.ProcessEnv,
  isTTY: boolean,
  write: (stream: 'stdout' | 'stderr', text: string) => void,
  progress?: ProgressLine,
): Emit {
  const style = makeStyle(colourEnabled(env, isTTY));
  return (line) => {
    const { text, stream } = renderHuman(saidsLeftOut(line), style);
    progress?.hide();
    write(stream, text);
    // A 429 backoff is a wait: its countdown replaces the spinner's words until it ends.
    if (line.event === 'backoff' && typeof line.delayMs === 'number')
      progress?.interrupt(
        line.delayMs,
        (left) => `the service is throttling (429): attempt ${Number(line.attempt) + 1} in ${left} s`,
      );
    else progress?.show();
  };
}

/** A spinner only for text on a terminal that can redraw a line. */
function progressWanted(face: Face, env: NodeJS.ProcessEnv, stdoutIsTTY: boolean): boolean {
  return face === 'human' && stdoutIsTTY && env.TERM !== 'dumb';
}

export function processIO(face: Face = 'json'): CliIO {
  const isTTY = process.stdout.isTTY === true;
  const progress = progressWanted(face, process.env, isTTY)
    ? new ProgressLine((s) => void process.stdout.write(s), makeStyle(colourEnabled(process.env, isTTY)))
    : undefined;
  return {
    emit:
      face === 'human'
        ? humanEmit(process.env, isTTY, (stream, text) => void process[stream].write(text), progress)
        : emitToStdout,
    ...(progress ? { progress: (text: ProgressText | undefined) => progress.set(text) } : {}),
    print: (text) => void process.stdout.write(text),
    printError: (text) => void process.stderr.write(text),
    env: process.env,
    clock: new SystemClock(),
    readStdin: () => readBoundedText(0, MAX_STDIN_BYTES),
    onStop: (listener) => {
      for (const signal of STOP_SIGNALS) process.once(signal, listener);
      return () => {
        for (const signal of STOP_SIGNALS) process.off(signal, listener);
      };
    },
  };
}

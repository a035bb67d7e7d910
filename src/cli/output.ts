// The CLI speaks JSON lines on stdout (docs/design.md). Commands get their I/O injected so tests can run them in-process.
import { SystemClock, type Clock } from '../core/time/clock';
import { MAX_STDIN_BYTES, readBoundedText } from './boundedRead';

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
  /** Registers a listener for the user's request to stop (SIGINT/SIGTERM/SIGHUP in the real CLI); returns its removal. */
  onStop: (listener: () => void) => () => void;
}

export const emitToStdout: Emit = (line) => {
  process.stdout.write(JSON.stringify(line) + '\n');
};

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export function processIO(): CliIO {
  return {
    emit: emitToStdout,
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

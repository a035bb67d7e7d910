// The CLI speaks JSON lines on stdout (DESIGN.md §5). Commands get their I/O injected so tests can run them in-process.
import { SystemClock, type Clock } from '../core/time/clock';
import { readFileSync } from 'node:fs';

export type Emit = (line: Record<string, unknown>) => void;

export interface CliIO {
  emit: Emit;
  env: NodeJS.ProcessEnv;
  clock: Clock;
  readStdin: () => string;
  /** Resolves when the user asks to stop (SIGINT/SIGTERM in the real CLI). */
  onStop: (listener: () => void) => () => void;
}

export const emitToStdout: Emit = (line) => {
  process.stdout.write(JSON.stringify(line) + '\n');
};

export function processIO(): CliIO {
  return {
    emit: emitToStdout,
    env: process.env,
    clock: new SystemClock(),
    readStdin: () => readFileSync(0, 'utf8'),
    onStop: (listener) => {
      process.once('SIGINT', listener);
      process.once('SIGTERM', listener);
      return () => {
        process.off('SIGINT', listener);
        process.off('SIGTERM', listener);
      };
    },
  };
}

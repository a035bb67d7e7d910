// `wfs`: the core, headless, for scripts and CI. Public interface: README "CLI".
import { ServiceError } from '../core/http/serviceErrors';
import { sandboxCommand } from './commands/sandboxCommand';
import { UsageError } from './flags';
import { emitToStdout, type Emit } from './output';

type Command = (argv: string[], emit: Emit) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  sandbox: sandboxCommand,
};

const USAGE = `usage: wfs <command> [flags]
commands:
  sandbox [--host H] [--port P] [--access-token-ttl SECONDS] [--workflow-duration SECONDS]`;

export async function main(argv: string[], emit: Emit = emitToStdout): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === 'help') {
    process.stderr.write(USAGE + '\n');
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    emit({ event: 'error', kind: 'usage', message: `unknown command "${name}"` });
    process.stderr.write(USAGE + '\n');
    return 2;
  }
  try {
    return await command(rest, emit);
  } catch (err) {
    if (err instanceof UsageError) {
      emit({ event: 'error', kind: 'usage', message: err.message });
      return 2;
    }
    if (err instanceof ServiceError) {
      emit(err.toJSON());
      return 1;
    }
    emit({ event: 'error', kind: 'internal', message: (err as Error).message });
    return 1;
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      process.stderr.write(String(err?.stack ?? err) + '\n');
      process.exitCode = 1;
    },
  );
}

// `wfs`: the core, headless, for scripts and CI. Public interface: README "CLI".
import { ServiceError } from '../core/http/serviceErrors';
import { TransportError } from '../core/http/request';
import { TunnelError } from '../core/tunnel/Tunnel';
import { auditCommand } from './commands/auditCommand';
import { listenCommand } from './commands/listenCommand';
import { sandboxCommand } from './commands/sandboxCommand';
import { startCommand } from './commands/startCommand';
import { statusCommand } from './commands/statusCommand';
import { testWebhookCommand } from './commands/testWebhookCommand';
import { UsageError } from './flags';
import { processIO, type CliIO } from './output';

type Command = (argv: string[], io: CliIO) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  sandbox: sandboxCommand,
  start: startCommand,
  status: statusCommand,
  'test-webhook': testWebhookCommand,
  listen: listenCommand,
  audit: auditCommand,
};

/** Exit codes (README: CLI). */
export const EXIT = { ok: 0, failed: 1, usage: 2, outcomeUnknown: 3, deadline: 4 } as const;

const USAGE = `usage: wfs <command> [flags]
commands:
  sandbox [--host H] [--port P] [--access-token-ttl SECONDS] [--workflow-duration SECONDS]
  start --session ID --service S --model M [--correlation-id C]
  status --workflow ID_OR_URL [--follow] [--deadline SECONDS]
  test-webhook --address URL --topic T --sub-topic S --tenant-id T [--webhook-id UUID] [--data FILE|-]
  listen --trust-file FILE [--host H] [--port P] [--path /webhooks] [--no-tunnel | --tunnel-host URL] [--subdomain S]
         [--forward-to URL] [--respond STATUS] [--max-body BYTES] [--log FILE]
  audit --target URL [--sandbox-url URL | --sandbox-port P] [--allow-remote] [--timeout SECONDS]
environment (start, status, test-webhook):
  WFS_BASE_URL, WFS_TEST_WEBHOOK_URL (defaults to WFS_BASE_URL), WFS_USERNAME, WFS_PASSWORD,
  WFS_USER_ALIAS (optional), WFS_USER_ALIAS_PLACEMENT (body | header | query; default body)`;

export async function main(argv: string[], io: CliIO = processIO()): Promise<number> {
  const { emit } = io;
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
    return await command(rest, io);
  } catch (err) {
    if (err instanceof UsageError) {
      emit({ event: 'error', kind: 'usage', message: err.message });
      return EXIT.usage;
    }
    if (err instanceof ServiceError) {
      emit(err.toJSON());
      if (err.kind === 'local-validation') return EXIT.usage;
      if (err.kind === 'outcome-unknown') return EXIT.outcomeUnknown;
      return EXIT.failed;
    }
    if (err instanceof TunnelError) {
      emit({ event: 'error', kind: 'tunnel', message: err.message });
      return EXIT.failed;
    }
    if (err instanceof TransportError) {
      emit({ event: 'error', kind: 'transport', reason: err.reason, message: err.message });
      return EXIT.failed;
    }
    emit({ event: 'error', kind: 'internal', message: (err as Error).message });
    return EXIT.failed;
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

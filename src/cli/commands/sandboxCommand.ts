// `wfs sandbox`: runs the simulator until SIGTERM/SIGINT, printing a ready line and one line per event.
import { Sandbox } from '../../core/sandbox/Sandbox';
import { intFlag, parseFlags } from '../flags';
import type { CliIO } from '../output';

export async function sandboxCommand(argv: string[], io: CliIO): Promise<number> {
  const { emit } = io;
  const flags = parseFlags(argv, { values: ['host', 'port', 'access-token-ttl', 'workflow-duration'] });
  const sandbox = new Sandbox({
    host: flags.values.get('host') ?? '127.0.0.1',
    port: intFlag(flags, 'port', 0, 65535) ?? 0,
    accessTokenTtlSeconds: intFlag(flags, 'access-token-ttl', 1, 86400),
    workflowDurationSeconds: intFlag(flags, 'workflow-duration', 0, 86400),
  });
  const info = await sandbox.start();
  emit({ event: 'ready', ...info });
  sandbox.on('request', (e) => emit(e));
  sandbox.on('webhook', (e) => emit(e));
  sandbox.on('error-event', (e) => emit(e));
  await new Promise<void>((resolve) => io.onStop(resolve));
  await sandbox.stop();
  emit({ event: 'stopped' });
  return 0;
}

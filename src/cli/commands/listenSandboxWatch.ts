// `wfs listen --trust-sandbox`: stays registered with a sandbox that restarts (core/receiver/registrationWatch.ts).
// A sandbox on a fixed port keeps its key and secret across restarts (sandboxState.ts), so the same secret registers
// this receiver again. Each change is one line: {"event":"sandbox-registered","sandbox":…,"url":…,"message":…} when
// registered again, a warning when the sandbox stops answering or refuses.
import type { SandboxControlClient } from '../../core/sandbox';
import type { Clock } from '../../core/time';
import type { CliIO } from '../output';

/** Starts watching; the returned function stops it. */
export function watchSandboxRegistration(
  client: SandboxControlClient,
  receiverUrl: string,
  clock: Clock,
  emit: CliIO['emit'],
): () => void {
  const watch = client.registrationWatch(receiverUrl, clock);
  watch.on('registered', (message) =>
    emit({ event: 'sandbox-registered', sandbox: client.baseUrl, url: receiverUrl, message }),
  );
  watch.on('lost', (message) => emit({ event: 'warning', message }));
  watch.on('refused', (message) => emit({ event: 'warning', message }));
  watch.start();
  return () => watch.stop();
}

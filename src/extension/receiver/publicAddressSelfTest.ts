// Test Public Address: one sandbox-signed delivery sent through the public address to the running receiver, so the
// user learns which hop (DNS, the tunnel, their proxy, the receiver) fails before the service does. The receiver
// trusts that one token, whichever environment is in use, and never forwards it (see Receiver.expectSelfTest).
import { SANDBOX_ENVIRONMENT } from '../../core/environments/environmentConfig';
import type { Clock } from '../../core/time/clock';
import { testPublicAddress, type PublicAddressTestResult } from '../../core/tunnel/publicAddressTest';
import type { Receiver } from '../../core/webhooks/Receiver';
import type { Verifier } from '../../core/webhooks/Verifier';
import type { EnvironmentRegistry } from '../environments/environmentRegistry';
import type { ExtensionLog } from '../log/extensionLog';
import type { SandboxHost } from '../sandboxHost';

export interface SelfTestDeps {
  sandbox: SandboxHost;
  environments: EnvironmentRegistry;
  verifier: Verifier;
  clock: Clock;
  extLog: ExtensionLog;
  /** The sandbox (re)started: the receiver's trust follows before the probe is signed. */
  sandboxStarted: () => void;
}

export class PublicAddressSelfTest {
  /** The last result, while the receiver and its address are the same. */
  last?: PublicAddressTestResult;
  private running?: Promise<PublicAddressTestResult>;

  constructor(private readonly deps: SelfTestDeps) {}

  /** Sends the probe through publicUrl to receiver; one test at a time. The result is kept as `last` only while
   * `current()` says the receiver it tested still runs. */
  run(
    receiver: Receiver,
    publicUrl: string,
    current: () => boolean,
    timeoutMs?: number,
  ): Promise<PublicAddressTestResult> {
    this.running ??= (async () => {
      const { sandbox, environments, verifier, clock, extLog } = this.deps;
      await sandbox.ensureStarted();
      this.deps.sandboxStarted();
      let untrust: (() => void) | undefined;
      const result = await testPublicAddress({
        publicUrl,
        receiver,
        clock,
        timeoutMs,
        sign: async (body) => {
          const token = await sandbox.signWebhookBody(body);
          const sandboxIssuers = environments.get(SANDBOX_ENVIRONMENT)?.trustedIssuers;
          if (!token || !sandboxIssuers) throw new Error('the sandbox stopped');
          untrust = verifier.trustToken(token, sandboxIssuers);
          return token;
        },
      }).finally(() => untrust?.());
      extLog[result.ok ? 'info' : 'warn'](
        `Public address test: ${result.ok ? 'ok' : `failed at ${result.failedHop}`}: ${result.detail}`,
      );
      if (current()) this.last = result;
      return result;
    })().finally(() => (this.running = undefined));
    return this.running;
  }
}

// Test Public Address: one sandbox-signed delivery sent through the public address to the running receiver, so the
// user learns which hop (DNS, the tunnel, their proxy, the receiver) fails before the service does. The session
// trusts that one token, whichever environment is in use, never forwards it, and runs it again after the tunnel
// reconnects.
import * as vscode from 'vscode';
import { hopWords, pathDetailWords } from './pathDetailWords';
import { SANDBOX_ENVIRONMENT } from '../../core/environments';
import type { ReceiverSession } from '../../core/receiver';
import type { PublicAddressTestResult } from '../../core/tunnel';
import type { EnvironmentRegistry } from '../environments/environmentRegistry';
import type { ExtensionLog } from '../log/extensionLog';
import type { SandboxHost } from '../sandboxHost';

export interface SelfTestDeps {
  session: ReceiverSession;
  sandbox: SandboxHost;
  environments: EnvironmentRegistry;
  output: ExtensionLog;
  /** The sandbox (re)started: the receiver's trust follows before the probe is signed. */
  sandboxStarted: () => void;
}

export class PublicAddressSelfTest {
  /** The last result, while the receiver and its address are the same. */
  last?: PublicAddressTestResult;
  private running?: Promise<PublicAddressTestResult>;

  constructor(private readonly deps: SelfTestDeps) {
    // Also the session's own runs after a reconnection.
    deps.session.on('self-test', (result) => {
      if (result.ok) deps.output.info(vscode.l10n.t('Public address test: ok: {0}', pathDetailWords(result)));
      else
        deps.output.warn(
          vscode.l10n.t('Public address test: failed at {0}: {1}', hopWords(result.failedHop), pathDetailWords(result)),
        );
      if (deps.session.running) this.last = result;
    });
  }

  /** Sends the probe through the public address; one test at a time. */
  run(timeoutMs?: number): Promise<PublicAddressTestResult> {
    this.running ??= (async () => {
      const { sandbox, environments, session } = this.deps;
      await sandbox.ensureStarted();
      this.deps.sandboxStarted();
      return session.testPublicAddress(async (body) => {
        const token = await sandbox.signWebhookBody(body);
        const issuers = environments.get(SANDBOX_ENVIRONMENT)?.trustedIssuers;
        if (!token || !issuers) throw new Error(vscode.l10n.t('the sandbox stopped'));
        return { token, issuers };
      }, timeoutMs);
    })().finally(() => (this.running = undefined));
    return this.running;
  }
}

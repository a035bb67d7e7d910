// Whom the window's receiver trusts: every configured environment's issuers, and the Sandbox's only while the
// Sandbox is the environment in use. Anything on this machine may have the sandbox sign (and its sign-in is a
// published demo account), so a delivery to a real environment's address signed by it proves nothing. What the
// editor itself signs is trusted token by token (ReceiverSession.trustSignedHere).
import * as vscode from 'vscode';
import { type Environment, SANDBOX_ENVIRONMENT } from '../../core/environments';
import type { ReceiverSession } from '../../core/receiver';
import type { TrustedIssuer } from '../../core/webhooks';
import type { EnvironmentRegistry } from '../environments/environmentRegistry';
import type { ExtensionLog } from '../log/extensionLog';
import { COMMANDS } from '../commandIds';

export class ReceiverTrust {
  /** What the receiver trusts, as last logged; and of it, the configured environments' issuers. */
  private text?: string;
  private configured?: string;

  constructor(
    private readonly session: ReceiverSession,
    private readonly environments: EnvironmentRegistry,
    private readonly output: ExtensionLog,
    private readonly changed: () => void,
  ) {}

  /** Applies the trust of the environments resolving now, and says so when it changed: in the log, and, while the
   * receiver runs and a configured environment's issuers changed (not the sandbox restarting on another port), in a
   * notification naming those now trusted. */
  apply(current: readonly Environment[] = this.environments.all()): void {
    const { issuers, text, configured } = this.trusted(current);
    if (text === this.text) return;
    const configuredBefore = this.configured;
    this.text = text;
    this.configured = configured;
    this.session.setIssuers(issuers);
    const inUse = this.environments.currentName;
    this.output.info(
      inUse === SANDBOX_ENVIRONMENT
        ? vscode.l10n.t('Receiver trusts: {0}', text)
        : vscode.l10n.t("Receiver trusts: {0} (not the Sandbox's issuer: {1} is the environment in use)", text, inUse),
    );
    if (configuredBefore !== undefined && configured !== configuredBefore && this.session.running)
      void Promise.resolve(
        vscode.window.showInformationMessage(
          vscode.l10n.t(
            'The webhook receiver now trusts: {0}.',
            configured || vscode.l10n.t("no configured environment's issuer"),
          ),
          vscode.l10n.t('Show Log'),
        ),
      ).then((a) => (a ? vscode.commands.executeCommand(COMMANDS.showLog) : undefined));
    this.changed();
  }

  private trusted(current: readonly Environment[]): { issuers: TrustedIssuer[]; text: string; configured: string } {
    const sandboxInUse = this.environments.currentName === SANDBOX_ENVIRONMENT;
    const envs = current.filter((e) => e.trustedIssuers.length > 0 && (sandboxInUse || e.name !== SANDBOX_ENVIRONMENT));
    const describe = (list: readonly Environment[]) =>
      list
        .map(
          (e) =>
            `${e.name} (${e.trustedIssuers.map((t) => `${t.issuer}, key set ${t.jwksUrl}, audience ${t.audience}`).join('; ')})`,
        )
        .join('; ');
    return {
      issuers: envs.flatMap((e) => e.trustedIssuers),
      text: describe(envs) || vscode.l10n.t('no issuer'),
      configured: describe(envs.filter((e) => e.name !== SANDBOX_ENVIRONMENT)),
    };
  }
}

// localtunnel relays deliveries through a server someone else runs, over an unencrypted data channel: for a real
// environment the user is asked once, and the answer is remembered per environment (globalState, not settings).
import * as vscode from 'vscode';

const CONSENT_KEY = 'wfs.localtunnelConsent';

/** The user's answer: remembered, or given now; "unanswered" (a dismissed dialog) asks again next time. */
export type LocaltunnelAnswer = 'allowed' | 'declined' | 'unanswered';

export class LocaltunnelConsent {
  constructor(private readonly state: vscode.Memento) {}

  remembered(environment: string): boolean | undefined {
    return this.state.get<Record<string, boolean>>(CONSENT_KEY)?.[environment];
  }

  async remember(environment: string, allowed: boolean | undefined): Promise<void> {
    const all = { ...this.state.get<Record<string, boolean>>(CONSENT_KEY) };
    if (allowed === undefined) delete all[environment];
    else all[environment] = allowed;
    await this.state.update(CONSENT_KEY, all);
  }

  /** Choosing localtunnel again ("Choose Public Address Source…") is asking to be asked again. */
  async forgetAll(): Promise<void> {
    await this.state.update(CONSENT_KEY, undefined);
  }

  /** The remembered answer, or the user's (a dialog that cannot be shown is a "no" this time, not remembered). */
  async answer(environment: string, serverHost: string): Promise<LocaltunnelAnswer> {
    const known = this.remembered(environment);
    if (known !== undefined) return known ? 'allowed' : 'declined';
    const open = vscode.l10n.t('Open Tunnel');
    const decline = vscode.l10n.t('Not for {0}', environment);
    const answer = await Promise.resolve(
      vscode.window.showWarningMessage(
        vscode.l10n.t("Open a localtunnel public address for {0}'s webhooks?", environment),
        {
          modal: true,
          detail: [
            vscode.l10n.t(
              'localtunnel gives this loopback receiver a public address by relaying every request through a tunnel server.',
            ),
            vscode.l10n.t(
              'The server ({0}) is run by volunteers or whoever hosts it, not by the Workflow Service or by this extension.',
              serverHost,
            ),
            vscode.l10n.t(
              'Its data channel to this machine is not encrypted: deliveries, which may carry customer data, and their bearer tokens cross it in plain text.',
            ),
            vscode.l10n.t(
              "Your answer is remembered for {0}; wfs.receiver.publicAddress offers VS Code's port forwarding or a URL of your own instead.",
              environment,
            ),
          ].join(' '),
        },
        open,
        decline,
      ),
    ).catch(() => undefined);
    const allowed = answer === open ? true : answer === decline ? false : undefined;
    if (allowed === undefined) return 'unanswered';
    await this.remember(environment, allowed);
    return allowed ? 'allowed' : 'declined';
  }
}

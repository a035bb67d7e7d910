// Start / stop the webhook receiver, and copy its addresses.
import * as vscode from 'vscode';
import { PublicAddressError, type ReceiverInfo } from '../receiver/receiverHost';
import { PUBLIC_ADDRESS_SOURCES, type PublicAddressSource } from '../receiver/publicAddressSettings';
import type { PublicAddressTestResult } from '../../core/tunnel';
import { showError } from '../errors/showError';
import { errorInUserWords, inUserWords } from '../coreWords';
import { WaitsForTrust } from '../trust/restrictedMode';
import { httpUrlProblemSaid, ListenError } from '../../core/http';
import { SettingError } from '../receiver/addressSetting';
import type { Services } from '../services';
import { SANDBOX_ENVIRONMENT } from '../../core/environments';
import { COMMANDS } from '../commandIds';
import { hopWords, pathDetailWords } from '../receiver/pathDetailWords';
import { SETTINGS } from '../settingKeys';
import { setting } from '../settings';

export function registerReceiverCommands(s: Services): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(COMMANDS.startReceiver, () => startReceiver(s)),
    vscode.commands.registerCommand(COMMANDS.stopReceiver, () => s.receiver.stop()),
    vscode.commands.registerCommand(COMMANDS.testPublicAddress, (args?: { timeoutMs?: number }) =>
      testPublicAddressCommand(s, typeof args?.timeoutMs === 'number' ? args.timeoutMs : undefined),
    ),
    vscode.commands.registerCommand(COMMANDS.choosePublicAddress, () => choosePublicAddress(s)),
    vscode.commands.registerCommand(COMMANDS.copyReceiverUrl, async (which?: 'local' | 'public') => {
      const info = s.receiver.info;
      if (!info)
        return void vscode.window
          .showInformationMessage(
            vscode.l10n.t('The webhook receiver is not running.'),
            vscode.l10n.t('Start Receiver'),
          )
          .then((a) => (a ? startReceiver(s) : undefined));
      const url = which === 'local' || !info.publicUrl ? info.localUrl : info.publicUrl;
      await vscode.env.clipboard.writeText(url);
      vscode.window.setStatusBarMessage(vscode.l10n.t('Copied {0}', url), 3000);
      return url;
    }),
  ];
}

async function startReceiver(s: Services): Promise<ReceiverInfo | undefined> {
  try {
    const info = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Starting the webhook receiver…') },
      () => s.receiver.start(),
    );
    const buttons = info.publicUrl
      ? [vscode.l10n.t('Copy Public URL'), vscode.l10n.t('Copy Local URL')]
      : [vscode.l10n.t('Copy Local URL')];
    void vscode.window
      .showInformationMessage(startedWords(s, info), ...buttons)
      .then(
        (a) =>
          a &&
          vscode.commands.executeCommand(
            COMMANDS.copyReceiverUrl,
            a === vscode.l10n.t('Copy Local URL') ? 'local' : 'public',
          ),
      );
    return info;
  } catch (err) {
    if (err instanceof PublicAddressError) {
      // The receiver runs; its public address did not open. Say why, and offer the setting at fault or the other
      // sources.
      s.output.warn(err.message);
      const setting = err.setting;
      void vscode.window
        .showWarningMessage(
          err.message,
          ...(setting ? [vscode.l10n.t('Open Settings')] : []),
          vscode.l10n.t('Choose Address Source'),
          vscode.l10n.t('Show Log'),
        )
        .then((a) => {
          if (a === vscode.l10n.t('Open Settings'))
            void vscode.commands.executeCommand('workbench.action.openSettings', setting);
          else if (a === vscode.l10n.t('Choose Address Source'))
            void vscode.commands.executeCommand(COMMANDS.choosePublicAddress);
          else if (a === vscode.l10n.t('Show Log')) s.output.show();
        });
    } else if (err instanceof SettingError) {
      // Nothing was started: a setting the receiver needs holds something it cannot use.
      const message = vscode.l10n.t('The webhook receiver could not start: {0}.', err.message);
      s.output.error(message);
      void vscode.window
        .showErrorMessage(message, vscode.l10n.t('Open Settings'))
        .then((a) => a && vscode.commands.executeCommand('workbench.action.openSettings', err.setting));
    } else if (err instanceof ListenError) {
      // The port is the user's setting: say so, and open it.
      const message = vscode.l10n.t(
        'The webhook receiver could not start: {0} (wfs.receiver.port is {1}).',
        errorInUserWords(err),
        err.port,
      );
      s.output.error(message);
      void vscode.window
        .showErrorMessage(message, vscode.l10n.t('Open Settings'))
        .then((a) => a && vscode.commands.executeCommand('workbench.action.openSettings', SETTINGS.receiverPort));
    } else void showError(s.output, vscode.l10n.t('Start receiver'), err);
    return s.receiver.info;
  }
}

/** Where the receiver listens, and whether the service reaches it; each combination is a whole message. The public
 * address may differ from the last start's: the Sandbox follows it by itself, a real service has the old one
 * registered, so that is said only when a real environment is configured, with what keeps the address next time. */
function startedWords(s: Services, info: ReceiverInfo): string {
  const loopbackWhy = info.publicNote ?? vscode.l10n.t('the sandbox reaches it directly');
  const from = info.publicChangedFrom;
  if (!from || !s.environments.names().some((n) => n !== SANDBOX_ENVIRONMENT))
    return info.publicUrl
      ? vscode.l10n.t('Webhook receiver at {0} — public {1}', info.localUrl, info.publicUrl)
      : vscode.l10n.t('Webhook receiver at {0} (loopback only: {1})', info.localUrl, loopbackWhy);
  const moved = info.publicUrl
    ? vscode.l10n.t(
        'Webhook receiver at {0} — public {1}. Its public address is not the one it had last time ({2}): where your webhook endpoint is registered with the service, register this one.',
        info.localUrl,
        info.publicUrl,
        from,
      )
    : vscode.l10n.t(
        'Webhook receiver at {0} (loopback only: {1}). Its public address is not the one it had last time ({2}): where your webhook endpoint is registered with the service, register this one.',
        info.localUrl,
        loopbackWhy,
        from,
      );
  const keep =
    info.publicSource === 'vscode' && !setting('receiverPort')
      ? vscode.l10n.t('A fixed wfs.receiver.port keeps the forwarded address from one start to the next.')
      : info.publicSource === 'localtunnel'
        ? setting('receiverTunnelSubdomain')
          ? vscode.l10n.t(
              'The localtunnel server did not give the name wfs.receiver.tunnelSubdomain asks for: another client may hold it.',
            )
          : vscode.l10n.t(
              'localtunnel gives a new name at each start: wfs.receiver.tunnelSubdomain asks for the same one.',
            )
        : undefined;
  // Two sentences: a translator may join them without the space.
  return keep ? vscode.l10n.t('{0} {1}', moved, keep) : moved;
}

/** Made when shown, in the display language: a table built at load would be translated before its bundle is known. */
const sourceItems = (): Record<PublicAddressSource, { label: string; detail: string }> => ({
  vscode: {
    label: vscode.l10n.t("VS Code's port forwarding"),
    detail: vscode.l10n.t(
      'Under remote development (SSH, WSL, containers, Codespaces, code-server) the forwarded address reaches the receiver; in Codespaces make the port public.',
    ),
  },
  url: {
    label: vscode.l10n.t('A URL of your own'),
    detail: vscode.l10n.t(
      'ngrok, cloudflared, a dev tunnel or a reverse proxy forwarding to a fixed wfs.receiver.port.',
    ),
  },
  localtunnel: {
    label: vscode.l10n.t('localtunnel'),
    detail: vscode.l10n.t(
      'A relay run by volunteers, unencrypted to this machine; asked once per real environment; never for the Sandbox.',
    ),
  },
  none: {
    label: vscode.l10n.t('None'),
    detail: vscode.l10n.t('Loopback only: the sandbox reaches it; the real service does not.'),
  },
});

/** Sets wfs.receiver.publicAddress (user settings) from a pick, asks for the URL when "url" is chosen. */
async function choosePublicAddress(s: Services): Promise<PublicAddressSource | undefined> {
  const current = setting('receiverPublicAddress');
  const pick = await vscode.window.showQuickPick(
    (['vscode', 'url', 'localtunnel', 'none'] as const).map((source) => ({
      ...sourceItems()[source],
      description: source === current ? vscode.l10n.t('{0} (current)', source) : source,
      source,
    })),
    { title: vscode.l10n.t('Where the webhook receiver gets its public address'), ignoreFocusOut: true },
  );
  if (!pick || !PUBLIC_ADDRESS_SOURCES.includes(pick.source)) return undefined;
  if (pick.source === 'url') {
    const url = await vscode.window.showInputBox({
      title: vscode.l10n.t('The public URL your tunnel or proxy serves (it forwards to wfs.receiver.port)'),
      value: setting('receiverPublicUrl'),
      ignoreFocusOut: true,
      validateInput: publicUrlInputProblem,
    });
    if (!url) return undefined;
    await s.receiver.settings.update('receiverPublicUrl', url.trim());
  }
  // Choosing localtunnel is asking for it: a remembered "no" would otherwise never be asked again.
  if (pick.source === 'localtunnel') await s.receiver.consent.forgetAll();
  await s.receiver.settings.update('receiverPublicAddress', pick.source);
  void vscode.window
    .showInformationMessage(
      vscode.l10n.t(
        "The receiver's public address now comes from: {0}. Restart the receiver to use it.",
        sourceItems()[pick.source].label,
      ),
      vscode.l10n.t('Restart Receiver'),
    )
    .then(async (a) => {
      if (!a) return;
      await vscode.commands.executeCommand(COMMANDS.stopReceiver);
      await vscode.commands.executeCommand(COMMANDS.startReceiver);
    });
  return pick.source;
}

/** What the public URL box says while its value is not an http(s) URL (the same sentence as the CLI's). */
function publicUrlInputProblem(value: string): string | undefined {
  const v = value.trim();
  if (!v) return vscode.l10n.t('An http(s) URL');
  const problem = httpUrlProblemSaid(v);
  return problem && vscode.l10n.t('The address {0}', inUserWords(problem));
}

/** Made when shown, in the display language (not at load, before the bundle is known). */
async function testPublicAddressCommand(s: Services, timeoutMs?: number): Promise<PublicAddressTestResult | undefined> {
  // The test sends a signed delivery off this machine, through the public address.
  if (!vscode.workspace.isTrusted) {
    void showError(
      s.output,
      vscode.l10n.t('Test public address'),
      new WaitsForTrust(vscode.l10n.t('Sending a delivery through the public address')),
    );
    return undefined;
  }
  try {
    const r = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Sending a signed delivery through the public address…'),
      },
      () => s.receiver.testPublicAddress(timeoutMs),
    );
    if (r.ok)
      void vscode.window.showInformationMessage(vscode.l10n.t('Public address works: {0}.', pathDetailWords(r)));
    else
      void vscode.window
        .showWarningMessage(
          vscode.l10n.t('Public address test failed at {0}: {1}.', hopWords(r.failedHop), pathDetailWords(r)),
          vscode.l10n.t('Choose Address Source'),
          vscode.l10n.t('Show Log'),
        )
        .then((a) => {
          if (a === vscode.l10n.t('Choose Address Source'))
            void vscode.commands.executeCommand(COMMANDS.choosePublicAddress);
          else if (a === vscode.l10n.t('Show Log')) s.output.show();
        });
    return r;
  } catch (err) {
    void showError(s.output, vscode.l10n.t('Test public address'), err);
    return undefined;
  }
}

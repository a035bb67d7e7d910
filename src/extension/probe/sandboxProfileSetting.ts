// wfs.sandbox.profile: a profile (from `wfs probe-service --profile-out`) the built-in sandbox imitates where the spec
// is silent. A path; ignored in Restricted Mode, where a cloned repository's settings are not the user's word.
import * as vscode from 'vscode';
import { errorInUserWords, inUserWords } from '../coreWords';
import { loadSandboxProfile, MAX_PROFILE_BYTES, type SandboxProfile } from '../../core/sandbox';
import { readBoundedFile } from '../boundedFile';
import type { ExtensionLog } from '../log/extensionLog';
import { SETTINGS } from '../settingKeys';
import { setting } from '../settings';

/** The profile to start the sandbox with, or undefined (none set, Restricted Mode, or unreadable: said in the log
 * and once on screen). */
export async function sandboxProfile(output: ExtensionLog): Promise<SandboxProfile | undefined> {
  const path = setting('sandboxProfile');
  if (!path) return undefined;
  if (!vscode.workspace.isTrusted) {
    output.warn(vscode.l10n.t('wfs.sandbox.profile is ignored in Restricted Mode: the sandbox starts as itself.'));
    return undefined;
  }
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const uri =
    path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) || !folder
      ? vscode.Uri.file(path)
      : vscode.Uri.joinPath(folder, path);
  try {
    const loaded = loadSandboxProfile(new TextDecoder().decode(await readBoundedFile(uri, MAX_PROFILE_BYTES)));
    output.info(
      loaded.imitatedSaid.length
        ? vscode.l10n.t(
            'Sandbox profile {0}: imitating {1}',
            uri.fsPath,
            loaded.imitatedSaid.map(inUserWords).join('; '),
          )
        : vscode.l10n.t('Sandbox profile {0}: imitating nothing', uri.fsPath),
    );
    for (const why of loaded.ignoredSaid)
      output.warn(vscode.l10n.t('Sandbox profile {0}: not imitated: {1}', uri.fsPath, inUserWords(why)));
    return loaded.profile;
  } catch (err) {
    const text = vscode.l10n.t(
      'The sandbox profile {0} (wfs.sandbox.profile) was not used: {1}. The sandbox starts as itself.',
      uri.fsPath,
      errorInUserWords(err),
    );
    output.warn(text);
    void vscode.window.showWarningMessage(text, vscode.l10n.t('Open Settings')).then((a) => {
      if (a) void vscode.commands.executeCommand('workbench.action.openSettings', SETTINGS.sandboxProfile);
    });
    return undefined;
  }
}

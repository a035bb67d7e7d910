// The settings a cloned repository's .vscode/settings.json (untrusted input) may not decide. Two kinds, both declared
// in package.json: user-only settings (application or machine scope: VS Code ignores a workspace's value always), and
// settings a workspace may set but that are used only once it is trusted (listed in restrictedConfigurations: VS Code
// drops a workspace's value in Restricted Mode; the forward settings also need the user's agreement then). This finds
// the ones a settings file tries to set, so the user can be told once that they were ignored. Pure: unit-tested.
import { SETTINGS } from '../settingKeys';

/** Every wfs.* setting a workspace cannot set (package.json declares their scope). */
export const USER_ONLY_SETTINGS = [
  SETTINGS.environments,
  SETTINGS.confirmBilledStart,
  SETTINGS.authRememberPasswordForSilentSignIn,
  SETTINGS.receiverPort,
  SETTINGS.receiverPublicAddress,
  SETTINGS.receiverPublicUrl,
  SETTINGS.receiverPublicPathCheckSeconds,
  SETTINGS.receiverTunnel,
  SETTINGS.receiverTunnelHost,
  SETTINGS.receiverTunnelSubdomain,
  SETTINGS.receiverForwardTo,
  SETTINGS.receiverHistoryMemoryMiB,
  SETTINGS.receiverHistoryDiskMiB,
  SETTINGS.receiverHistoryStorage,
] as const;

/** The wfs.* settings a workspace may set, used only once it is trusted (window scope, restrictedConfigurations). */
export const TRUSTED_WORKSPACE_SETTINGS = [
  SETTINGS.receiverForward,
  SETTINGS.receiverForwardPassThrough,
  SETTINGS.sandboxProfile,
] as const;

/** The settings of `among` a settings file's text sets, in the order they appear (comments are not read). */
export function settingsIn(text: string, among: readonly string[]): string[] {
  const found: string[] = [];
  const withoutComments = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:"\\])\/\/.*$/gm, '$1');
  for (const m of withoutComments.matchAll(/"(wfs\.[A-Za-z0-9_.]+)"\s*:/g)) {
    const key = m[1]!;
    if (among.includes(key) && !found.includes(key)) found.push(key);
  }
  return found;
}

/** The user-only settings a settings file's text sets, in the order they appear (comments are not read). */
export function userOnlySettingsIn(text: string): string[] {
  return settingsIn(text, USER_ONLY_SETTINGS);
}

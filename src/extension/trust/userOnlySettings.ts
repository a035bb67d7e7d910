// The settings a cloned repository's .vscode/settings.json (untrusted input) may not decide. Two kinds, both declared
// in package.json: user-only settings (application or machine scope: VS Code ignores a workspace's value always), and
// settings a workspace may set but that are used only once it is trusted (listed in restrictedConfigurations: VS Code
// drops a workspace's value in Restricted Mode; the forward settings also need the user's agreement then). This finds
// the ones a settings file tries to set, so the user can be told once that they were ignored. Pure: unit-tested.

/** Every wfs.* setting a workspace cannot set (package.json declares their scope). */
export const USER_ONLY_SETTINGS = [
  'wfs.environments',
  'wfs.confirmBilledStart',
  'wfs.auth.rememberPasswordForSilentSignIn',
  'wfs.receiver.port',
  'wfs.receiver.publicAddress',
  'wfs.receiver.publicUrl',
  'wfs.receiver.tunnel',
  'wfs.receiver.tunnelHost',
  'wfs.receiver.tunnelSubdomain',
  'wfs.receiver.forwardTo',
  'wfs.receiver.historyMemoryMiB',
  'wfs.receiver.historyDiskMiB',
  'wfs.receiver.historyStorage',
] as const;

/** The wfs.* settings a workspace may set, used only once it is trusted (window scope, restrictedConfigurations). */
export const TRUSTED_WORKSPACE_SETTINGS = [
  'wfs.receiver.forward',
  'wfs.receiver.forwardPassThrough',
  'wfs.sandbox.profile',
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

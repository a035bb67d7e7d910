// Settings that route credentials, billing or deliveries: declared application- or machine-scoped in package.json,
// so VS Code ignores a workspace's value for them. A cloned repository's .vscode/settings.json is untrusted input;
// this finds the ones it tries to set, so the user can be told once that they were ignored. Pure: unit-tested.

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

/** The user-only settings a settings file's text sets, in the order they appear (comments are not read). */
export function userOnlySettingsIn(text: string): string[] {
  const found: string[] = [];
  const withoutComments = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:"\\])\/\/.*$/gm, '$1');
  for (const m of withoutComments.matchAll(/"(wfs\.[A-Za-z0-9_.]+)"\s*:/g)) {
    const key = m[1]!;
    if ((USER_ONLY_SETTINGS as readonly string[]).includes(key) && !found.includes(key)) found.push(key);
  }
  return found;
}

// The one reader of the extension's settings (wfs.*): every read is typed, with package.json's default, and a value
// that does not fit is read as settingValues.ts says and told once in the log, naming the setting. What a workspace
// sets is someone else's word: the user-only settings are application- or machine-scoped, so VS Code never hands over
// a workspace's value (userOnlySettings.ts); where a feature weighs a workspace's value itself (the forward rules), it
// reads the user's and the workspace's apart (settingLayers) and decides with the workspace's trust. No other module
// calls getConfiguration('wfs') (test/unit/extension/settings.test.ts).
import * as vscode from 'vscode';
import { SETTINGS } from './settingKeys';
import { settingValue, type BadValue, type SettingKey, type SettingName, type SettingValue } from './settingValues';

const SECTION = 'wfs';

/** Where a value that did not fit is told: the output log once the extension is composed. */
let tell: ((text: string) => void) | undefined;
/** Each setting and value told once: a setting read on every refresh would fill the log. */
const told = new Set<string>();

/** Tells values that do not fit to `log` from now on. */
export function tellBadSettingsTo(log: { warn(text: string): void }): vscode.Disposable {
  tell = (text) => log.warn(text);
  return new vscode.Disposable(() => (tell = undefined));
}

function section(name: SettingName): string {
  return SETTINGS[name].slice(SECTION.length + 1);
}

function config(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(SECTION);
}

/** The setting's value as the extension uses it: typed, package.json's default when unset or not fitting. */
export function setting<N extends SettingName>(name: N): SettingValue<N> {
  const { value, bad } = settingValue(name, config().get<unknown>(section(name)));
  if (bad) tellBad(bad);
  return value;
}

/** The user's own value and a workspace's (a folder's before the workspace's), apart and unchecked: for a feature that
 * weighs a workspace's value itself, and checks both with its own sentences. */
export function settingLayers(name: SettingName): { user: unknown; workspace: unknown } {
  const found = config().inspect<unknown>(section(name));
  return { user: found?.globalValue, workspace: found?.workspaceFolderValue ?? found?.workspaceValue };
}

/** Writes the user's own value (undefined removes it). */
export async function updateUserSetting(name: SettingName, value: unknown): Promise<void> {
  await config().update(section(name), value, vscode.ConfigurationTarget.Global);
}

/** Calls `listener` when a wfs.* setting changed, with a test of which did. */
export function onDidChangeSettings(listener: (changed: (key: SettingKey) => boolean) => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(SECTION)) listener((key) => e.affectsConfiguration(key));
  });
}

function tellBad(bad: BadValue): void {
  const id = `${bad.key}=${JSON.stringify(bad.value)}`;
  if (!tell || told.has(id)) return;
  told.add(id);
  tell(badSettingText(bad));
}

/** "wfs.receiver.port is "3000", not an integer from 0 to 65535: 0 is used. …" */
function badSettingText(bad: BadValue): string {
  const e = bad.expected;
  const expected =
    e.kind === 'integer'
      ? e.orOff
        ? vscode.l10n.t('0 (off) or an integer from {0} to {1}', e.min, e.max)
        : vscode.l10n.t('an integer from {0} to {1}', e.min, e.max)
      : e.kind === 'boolean'
        ? vscode.l10n.t('true or false')
        : e.kind === 'text'
          ? vscode.l10n.t('text')
          : vscode.l10n.t('one of {0}', e.values.map((v) => JSON.stringify(v)).join(', '));
  return vscode.l10n.t(
    'Settings: {0} is {1}, not {2}: {3} is used. Set it in your settings to use another value.',
    bad.key,
    JSON.stringify(bad.value) ?? String(bad.value),
    expected,
    JSON.stringify(bad.used) ?? String(bad.used),
  );
}

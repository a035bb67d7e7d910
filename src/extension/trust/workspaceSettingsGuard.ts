// Tells the user, once per setting and file, that a workspace tried to set a setting only user settings may set, or
// (in Restricted Mode) one used only in a trusted workspace. VS Code already ignores the value (userOnlySettings.ts).
import * as vscode from 'vscode';
import { errorInUserWords } from '../coreWords';
import { Disposable } from '../disposable';
import { readBoundedFile } from '../boundedFile';
import type { ExtensionLog } from '../log/extensionLog';
import { settingsIn, TRUSTED_WORKSPACE_SETTINGS, userOnlySettingsIn } from './userOnlySettings';

const WARNED_KEY = 'wfs.ignoredWorkspaceSettingsWarned';
/** A settings file is a few kilobytes; a cloned repository's may be anything. */
const MAX_SETTINGS_FILE_BYTES = 1024 * 1024;

export class WorkspaceSettingsGuard extends Disposable {
  constructor(
    private readonly state: vscode.Memento,
    private readonly output: ExtensionLog,
  ) {
    super();
    const watcher = vscode.workspace.createFileSystemWatcher('**/.vscode/settings.json');
    this.registerAll(
      watcher,
      watcher.onDidCreate(() => void this.check()),
      watcher.onDidChange(() => void this.check()),
      vscode.workspace.onDidChangeWorkspaceFolders(() => void this.check()),
    );
    void this.check();
  }

  /** Reads each workspace settings file; warns about each user-only setting it sets, once per file. */
  async check(): Promise<string[]> {
    const files = (vscode.workspace.workspaceFolders ?? []).map((f) =>
      vscode.Uri.joinPath(f.uri, '.vscode', 'settings.json'),
    );
    if (vscode.workspace.workspaceFile?.scheme === 'file') files.push(vscode.workspace.workspaceFile);
    const warned = new Set(this.state.get<string[]>(WARNED_KEY) ?? []);
    const trusted = vscode.workspace.isTrusted;
    const found: string[] = [];
    for (const file of files) {
      let text: string;
      try {
        text = new TextDecoder().decode(await readBoundedFile(file, MAX_SETTINGS_FILE_BYTES));
      } catch (err) {
        if ((err as { code?: string }).code !== 'FileNotFound')
          this.output.warn(
            vscode.l10n.t('Workspace settings not checked for user-only settings: {0}.', errorInUserWords(err)),
          );
        continue;
      }
      const where = vscode.workspace.asRelativePath(file);
      const ignored = [
        ...userOnlySettingsIn(text).map((key) => ({
          key,
          text: vscode.l10n.t(
            '{0} sets {1}, which only your user settings can set: the workspace value is ignored.',
            where,
            key,
          ),
        })),
        ...(trusted ? [] : settingsIn(text, TRUSTED_WORKSPACE_SETTINGS)).map((key) => ({
          key,
          text: vscode.l10n.t(
            '{0} sets {1}, which a workspace decides only once you trust it: the workspace value is ignored in Restricted Mode.',
            where,
            key,
          ),
        })),
      ];
      for (const { key, text: said } of ignored) {
        const id = `${file.toString()}#${key}`;
        found.push(id);
        if (warned.has(id)) continue;
        warned.add(id);
        this.output.warn(said);
        void vscode.window.showWarningMessage(said, vscode.l10n.t('Open User Settings')).then((a) => {
          if (a) void vscode.commands.executeCommand('workbench.action.openSettings', key);
        });
      }
    }
    await this.state.update(WARNED_KEY, [...warned]);
    return found;
  }
}

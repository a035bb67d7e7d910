// Switch environment, and the environment menu the status bar opens (switch, sign in, sign out, settings).
import * as vscode from 'vscode';
import { SANDBOX_ENVIRONMENT } from '../../core/environments';
import type { Services } from '../services';
import { COMMANDS } from '../commandIds';
import { SETTINGS } from '../settingKeys';

type MenuItem = vscode.QuickPickItem & { run: () => Thenable<unknown> | Promise<unknown> };

export function registerEnvironmentCommands(s: Services): vscode.Disposable[] {
  return [vscode.commands.registerCommand(COMMANDS.switchEnvironment, (name?: string) => switchEnvironment(s, name))];
}

async function switchEnvironment(s: Services, name?: string): Promise<string | undefined> {
  if (typeof name === 'string') {
    await s.environments.select(name);
    return name;
  }
  const current = s.environments.currentName;
  const env = s.environments.current;
  const tm = env && (await s.auth.manager(env));
  const signedIn = tm && tm.state !== 'signed-out' && tm.state !== 'expired';
  const items: MenuItem[] = s.environments.names().map((n) => {
    const c = s.environments.get(n);
    return {
      label: `${n === current ? '$(check)' : '$(blank)'} ${n}`,
      description:
        n === SANDBOX_ENVIRONMENT
          ? c
            ? vscode.l10n.t('built-in sandbox · {0}', c.baseUrl)
            : vscode.l10n.t('built-in sandbox · not started')
          : c?.baseUrl,
      run: () => s.environments.select(n),
    };
  });
  items.push({ label: '', kind: vscode.QuickPickItemKind.Separator, run: async () => undefined });
  if (signedIn)
    items.push({
      label: vscode.l10n.t('$(sign-out) Sign Out of {0}', current),
      description: tm?.current?.username,
      run: () => s.auth.signOut(current),
    });
  else
    items.push({
      label: vscode.l10n.t('$(sign-in) Sign In to {0}…', current),
      run: () => vscode.commands.executeCommand(COMMANDS.signIn),
    });
  if (current === SANDBOX_ENVIRONMENT && !s.sandbox.info)
    items.push({ label: vscode.l10n.t('$(play) Start Sandbox'), run: () => s.sandbox.startWithUi() });
  items.push({
    label: vscode.l10n.t('$(settings-gear) Configure Environments…'),
    description: SETTINGS.environments,
    run: () => vscode.commands.executeCommand('workbench.action.openSettings', SETTINGS.environments),
  });
  const pick = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Workflow Service: Environment'),
    placeHolder: vscode.l10n.t('Current: {0}', current),
  });
  await pick?.run();
  return s.environments.currentName;
}

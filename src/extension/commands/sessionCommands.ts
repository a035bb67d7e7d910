// Add a session by id (no endpoint lists them), remembered per environment; remove it from the explorer.
import * as vscode from 'vscode';
import { type Environment, SANDBOX_ENVIRONMENT } from '../../core/environments';
import type { ExplorerNode } from '../explorer/explorerTree';
import type { Services } from '../services';
import { pickOrType } from './pickOrType';
import { COMMANDS } from '../commandIds';

export function registerSessionCommands(s: Services): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(COMMANDS.addSession, (arg?: string | ExplorerNode) =>
      addSession(s, typeof arg === 'string' ? arg : undefined),
    ),
    vscode.commands.registerCommand(COMMANDS.removeSession, (node?: ExplorerNode) => {
      if (node?.kind === 'session') s.workflows.removeSession(node.env, node.sessionId);
    }),
  ];
}

async function addSession(s: Services, given?: string): Promise<string | undefined> {
  // Sessions are the user's list, kept by name: one can be added while the sandbox is stopped.
  const env: Pick<Environment, 'name'> = s.environments.current ?? { name: s.environments.currentName };
  let sessionId = given;
  if (sessionId === undefined) {
    const known = new Set(s.workflows.store.sessions(env));
    const info = env.name === SANDBOX_ENVIRONMENT ? s.sandbox.info : undefined;
    // The sandbox's seeded sessions are offered; any other id can be typed.
    const suggestions = info ? [info.sessions.staged, info.sessions.empty].filter((id) => !known.has(id)) : [];
    sessionId = await pickOrType<string>({
      title: vscode.l10n.t('Add a session to {0}', env.name),
      placeholder: vscode.l10n.t(
        'Type a session id (sessions are created in your loan system; no endpoint lists them)',
      ),
      items: suggestions.map((id) => ({
        label: id,
        value: id,
        description:
          id === info?.sessions.staged
            ? vscode.l10n.t('sandbox: a loan is staged')
            : vscode.l10n.t('sandbox: nothing staged (start → 409 SESSION_EMPTY)'),
      })),
      fromText: (text) =>
        text.trim()
          ? { label: text.trim(), value: text.trim(), description: vscode.l10n.t('add this session id') }
          : undefined,
    });
  }
  sessionId = sessionId?.trim();
  if (!sessionId) return undefined;
  if (sessionId.length > 255 || /[\u0000-\u001f]/.test(sessionId)) {
    void vscode.window.showErrorMessage(
      vscode.l10n.t('A session id has at most 255 characters and no control characters.'),
    );
    return undefined;
  }
  if (!s.workflows.store.addSession(env, sessionId))
    void vscode.window.showInformationMessage(vscode.l10n.t('{0} is already in the explorer.', sessionId));
  else s.output.info(vscode.l10n.t('{0}: added session {1}', env.name, sessionId));
  return sessionId;
}

// What the workbench shows, read from its DOM by the harness (test/vscode/harness/webviewInspector.mjs), as a user
// would see it: the status bar and notifications. The extension is never asked.
import * as vscode from 'vscode';
import { inWebview } from './webviewDom';

/** Each status bar entry's text, its icons written back as `$(name)`, as VS Code rendered it. */
const STATUS_BAR_TEXTS = `[...document.querySelectorAll('.statusbar .statusbar-item')].map((item) =>
  [...(item.querySelector('a') ?? item).childNodes].map((n) => {
    const icon = n.nodeType === 1 && [...n.classList].find((c) => c.startsWith('codicon-') && c !== 'codicon-modifier-spin');
    return icon ? '$(' + icon.slice('codicon-'.length) + ')' : n.textContent;
  }).join('').trim())`;

/** The status bar entry that matches `pattern` (a regular expression), once one does. */
export async function statusBarEntry(pattern: RegExp): Promise<string> {
  const matches = `(${STATUS_BAR_TEXTS}).find((t) => new RegExp(${JSON.stringify(pattern.source)}).test(t))`;
  return inWebview<string>('.statusbar', matches, `!!${matches}`);
}

/** The messages in VS Code's notification center that match `pattern`, once there are at least `atLeast`. Opens
 * the center first: toasts show only the latest few. VS Code hides the center whenever a change leaves it empty
 * (a progress notification of an earlier step closing, which it keeps for at least 800 ms), and what arrives after
 * that is a toast: so the center is opened again until the messages are in it. */
export async function notificationsInCenter(pattern: RegExp, atLeast: number): Promise<string[]> {
  const matching = `[...document.querySelectorAll('.notifications-center .notification-list-item-message')].map((m) => m.textContent).filter((t) => new RegExp(${JSON.stringify(pattern.source)}).test(t))`;
  const deadline = Date.now() + 15_000;
  for (let attempt = 0; ; attempt++) {
    await openCenter(attempt);
    try {
      return await inWebview<string[]>('.monaco-workbench', matching, `(${matching}).length >= ${atLeast}`, 1_000);
    } catch (err) {
      if (Date.now() > deadline) throw err;
    }
  }
}

/** Opens the notification center. An open center was seen (in the full suite) to keep showing what it held and
 * not the notification that arrived since: from the second attempt on it is closed and opened again. */
async function openCenter(attempt: number): Promise<void> {
  if (attempt > 0) await vscode.commands.executeCommand('notifications.hideList');
  await vscode.commands.executeCommand('notifications.showList');
}

/** The buttons of the first notification in the center whose message matches `pattern`, as labelled on screen. */
export async function notificationButtons(pattern: RegExp): Promise<string[]> {
  const item = `[...document.querySelectorAll('.notifications-center .notification-list-item')].find((i) => new RegExp(${JSON.stringify(pattern.source)}).test(i.querySelector('.notification-list-item-message')?.textContent ?? ''))`;
  const buttons = `[...(${item})?.querySelectorAll('.notification-list-item-buttons-container .monaco-button') ?? []].map((b) => b.textContent.trim())`;
  const deadline = Date.now() + 15_000;
  for (let attempt = 0; ; attempt++) {
    await openCenter(attempt);
    try {
      return await inWebview<string[]>('.monaco-workbench', buttons, `(${buttons}).length > 0`, 1_000);
    } catch (err) {
      if (Date.now() > deadline) throw err;
    }
  }
}

/** The rows of the quick pick on screen, once one of them reads `label`. */
export async function quickPickRows(label: string): Promise<string[]> {
  const rows = `[...document.querySelectorAll('.quick-input-widget .quick-input-list .monaco-list-row')].map((r) => r.getAttribute('aria-label') ?? r.textContent)`;
  return inWebview<string[]>('.monaco-workbench', rows, `(${rows}).some((r) => r.includes(${JSON.stringify(label)}))`);
}

/** Clicks the button labelled `label` on the notification in the center whose message matches `pattern`, once
 * one is there: as a user cancels a progress notification. */
export async function clickNotificationButton(pattern: RegExp, label: string): Promise<void> {
  const button = `[...document.querySelectorAll('.notifications-center .notification-list-item')].filter((i) => new RegExp(${JSON.stringify(pattern.source)}).test(i.querySelector('.notification-list-item-message')?.textContent ?? '')).flatMap((i) => [...i.querySelectorAll('.monaco-button')]).find((b) => b.textContent.trim() === ${JSON.stringify(label)})`;
  const deadline = Date.now() + 15_000;
  for (let attempt = 0; ; attempt++) {
    await openCenter(attempt);
    try {
      await inWebview<boolean>('.monaco-workbench', `(${button}).click() ?? true`, `!!(${button})`, 1_000);
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
    }
  }
}

export interface ShownItem {
  /** The element's id (a status bar entry's: its extension id and its own). */
  id: string;
  /** What a sighted user reads. */
  text: string;
  /** What a screen reader says. */
  ariaLabel: string;
}

/** Our status bar entries (the ids the extension gave them: "wfs.status", "wfs.receiver"), once `atLeast` show. */
export async function ourStatusBarItems(atLeast: number): Promise<ShownItem[]> {
  const items = `[...document.querySelectorAll('.statusbar .statusbar-item')].filter((i) => /(^|\\.)wfs\\.(status|receiver)$/i.test(i.id)).map((i) => ({ id: i.id, text: i.textContent.trim(), ariaLabel: (i.querySelector('a') ?? i).getAttribute('aria-label') ?? '' }))`;
  return inWebview<ShownItem[]>('.statusbar', items, `(${items}).length >= ${atLeast}`);
}

/** The rows of the tree in the side bar view `viewId` (focused first, so it is shown), once one row's aria-label
 * matches `pattern`. */
export async function treeRows(viewId: string, pattern: RegExp): Promise<ShownItem[]> {
  await vscode.commands.executeCommand(`${viewId}.focus`);
  const rows = `[...document.querySelectorAll('.part.sidebar .monaco-list-row')].map((r) => ({ id: r.id, text: r.textContent.trim(), ariaLabel: r.getAttribute('aria-label') ?? '' }))`;
  return inWebview<ShownItem[]>(
    '.monaco-workbench',
    rows,
    `(${rows}).some((r) => new RegExp(${JSON.stringify(pattern.source)}).test(r.ariaLabel))`,
  );
}

/** The quick pick on screen, once one of its rows reads `label`: its title, placeholder and rows as read (the
 * aria-label would spell a row's icon as a word). */
export async function quickPickShown(label: string): Promise<{ title: string; placeholder: string; rows: string[] }> {
  await quickPickRows(label);
  const shown = `({ title: document.querySelector('.quick-input-widget .quick-input-title')?.textContent ?? '', placeholder: document.querySelector('.quick-input-widget input')?.getAttribute('placeholder') ?? '', rows: [...document.querySelectorAll('.quick-input-widget .quick-input-list .monaco-list-row')].map((r) => r.textContent) })`;
  return inWebview<{ title: string; placeholder: string; rows: string[] }>('.monaco-workbench', shown);
}

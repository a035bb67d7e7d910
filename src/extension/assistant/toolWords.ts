// What a person reads of a tool in VS Code's chat: the progress line while it runs, and the confirmation before a
// tool that sends or starts. Pure (unit-tested in plain Node): it takes vscode.l10n as a parameter, English by
// default; the messages are written `l10n.t('…', v)` beside a type-only import of vscode's l10n, so @vscode/l10n-dev
// exports them into l10n/bundle.l10n.json, and core's words (the title, the preview) are Saids worded the same way.
import type { l10n } from 'vscode';
import type { AssistantTool, WordedPreview } from '../../core/assistant';
import { worded } from '../../core/presentation';
import { english, wordingOf } from '../panel/words';

type Words = Pick<typeof l10n, 't'>;

/** The progress line VS Code shows while a tool runs: its effect and its title. One message per effect, so a
 * translator words each whole. */
export function invocationMessage(tool: AssistantTool<never, unknown>, l10n: Words = english): string {
  const title = worded(tool.titleSaid, wordingOf(l10n));
  switch (tool.effect) {
    case 'reads':
      return l10n.t('Reading: {0}', title);
    case 'sends':
      return l10n.t('Sending: {0}', title);
    case 'starts':
      return l10n.t('Starting: {0}', title);
  }
}

/** VS Code's confirmation before a tool sends or starts: core's preview in the user's words, the values as they are. */
export function confirmationMessages(
  preview: WordedPreview,
  l10n: Words = english,
): { title: string; message: string } {
  const wording = wordingOf(l10n);
  return { title: worded(preview.said.title, wording), message: worded(preview.said.message, wording) };
}

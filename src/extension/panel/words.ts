// The panel's words outside the vscode runtime: panelHtml.ts and deliveryView.ts are pure (unit-tested in plain Node),
// so they take vscode.l10n as a parameter and default to English. Their messages are written `l10n.t('… {0} …', v)`
// beside a type-only import of vscode's l10n, so @vscode/l10n-dev exports them into l10n/bundle.l10n.json.
import type { l10n } from 'vscode';
import type { Wording } from '../../core/presentation';

/** vscode.l10n, or English: what the panel's pure modules word their text with. */
type Words = Pick<typeof l10n, 't'>;

/** The message with `{0}`, `{1}`… filled in: the English the bundle's keys are. */
function fillIn(message: string, args: readonly unknown[]): string {
  return message.replace(/\{(\d+)\}/g, (whole, i: string) =>
    Number(i) < args.length ? String(args[Number(i)]) : whole,
  );
}

export const english: Words = {
  t: ((message: string, ...args: unknown[]) => fillIn(message, args)) as Words['t'],
};

/** The bundle as data in a webview's page: `<` escaped, so no `</script>` or `<!--` in a message ends the element. */
export function bundleJson(bundle: Record<string, string> | undefined): string {
  return JSON.stringify(bundle ?? {}).replace(/</g, '\\u003c');
}

/** Core's words (a Said) worded with these: vscode.l10n finds core's messages in the extension's bundle. */
export function wordingOf(words: Words): Wording {
  return (message, ...values) => words.t(message, ...values);
}

// Core's Saids through the extension's bundle in the pseudo-locale, for the unit tests of each converted area: the
// wording vscode.l10n.t would give, and what is left of our English once the data values are taken out.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isSaid, type Said, type Wording } from '../../../src/core/presentation/said';
import { plainLetters, pseudoLocalize } from './pseudoLocale';

const ROOT = join(__dirname, '../../../..');

/** The extension's bundle (core's said() and the extension's l10n.t, as the build exports them), pseudo-localized. */
function pseudoBundle(): Record<string, string> {
  const bundle = JSON.parse(readFileSync(join(ROOT, 'l10n/bundle.l10n.json'), 'utf8')) as Record<string, string>;
  return Object.fromEntries(Object.keys(bundle).map((k) => [k, pseudoLocalize(k)]));
}

export function pseudoWords(): {
  /** As vscode.l10n.t words a message in the pseudo-locale: looked up in the bundle, the values filled in. */
  wording: Wording;
  /** The English of ours left in `s` (empty when none), its data values taken out and its inner Saids kept. */
  leftEnglish: (label: string, s: Said | undefined) => string[];
} {
  const pseudo = pseudoBundle();
  const wording: Wording = (message, ...values) =>
    (pseudo[message] ?? message).replace(/\{(\d+)\}/g, (w, i: string) => String(values[Number(i)] ?? w));
  // A message missing from the bundle stays English, and shows.
  const oursOnly = (s: Said): string =>
    (pseudo[s.message] ?? s.message).replace(/\{(\d+)\}/g, (_w, i: string) => {
      const v = s.values?.[Number(i)];
      return isSaid(v) ? oursOnly(v) : '';
    });
  const leftEnglish = (label: string, s: Said | undefined): string[] => {
    if (!isSaid(s)) return [`${label}: no Said`];
    return plainLetters(oursOnly(s)) === '' ? [] : [`${label}: ${oursOnly(s)}`];
  };
  return { wording, leftEnglish };
}

// Core's words (a Said) worded as the extension does, through a bundle: here the pseudo-locale of the bundle the
// build exports (l10n/bundle.l10n.json, made by esbuild.mjs), so a test can assert that no English of ours is left.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { l10n } from 'vscode';
import { worded, type Said, type Wording } from '../../../src/core/presentation/said';
import { plainLetters, pseudoLocalize } from '../l10n/pseudoLocale';

const ROOT = join(__dirname, '../../../..');

let cached: Record<string, string> | undefined;

function pseudoBundle(): Record<string, string> {
  if (cached) return cached;
  const bundle = JSON.parse(readFileSync(join(ROOT, 'l10n/bundle.l10n.json'), 'utf8')) as Record<string, unknown>;
  cached = Object.fromEntries(Object.keys(bundle).map((k) => [k, pseudoLocalize(k)]));
  return cached;
}

/** A wording that looks each message up in the pseudo bundle, as vscode.l10n.t does, and fills in the values. A
 * message missing from the bundle comes out in English, so the test sees it. */
export function pseudoWording(): Wording {
  const bundle = pseudoBundle();
  return (message, ...values) =>
    (bundle[message] ?? message).replace(/\{(\d+)\}/g, (w, i: string) => String(values[Number(i)] ?? w));
}

/** The same as vscode.l10n's shape, for the pure modules that take `Words`. */
export function pseudoWords(): Pick<typeof l10n, 't'> {
  const wording = pseudoWording();
  return { t: ((message: string, ...values: (string | number)[]) => wording(message, ...values)) as typeof l10n.t };
}

/** `shown` with each value taken out: what is left is our words. */
export function withoutValues(shown: string, ...values: (string | number)[]): string {
  return values.reduce<string>((rest, v) => rest.split(String(v)).join(' '), shown);
}

/** The data a Said carries (its values that are not Saids, at every depth): names, addresses, numbers. */
function dataValues(s: Said): string[] {
  return (s.values ?? []).flatMap((v) => (typeof v === 'object' ? dataValues(v) : [String(v)]));
}

/** What is left of our words once `s` is worded in the pseudo-locale and its data is taken out: '' when every
 * message of it is in the bundle. */
export function englishLeft(s: Said): string {
  const shown = worded(s, pseudoWording());
  return plainLetters(withoutValues(shown, ...dataValues(s).sort((a, b) => b.length - a.length)));
}

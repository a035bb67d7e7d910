// The pseudo-locale (qps-ploc): each English string wrapped in [ ] with every letter accented, so a screen showing
// an unwrapped or unaccented word shows a string that missed the bundle. Kept intact, since VS Code reads them:
// placeholders {0}, codicons $(name), setting links #wfs.x#, and link targets (command:…) or (https://…).
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const PLAIN = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const ACCENTED = 'àƀçďéƒĝĥîĵķĺɱñôþǫŕšţûṽŵẋýžÀƁÇĎÉƑĜĤÎĴĶĹṀÑÔÞǪŔŠŢÛṼŴẊÝŽ';
const KEPT = /(\{\d+\}|\$\([\w~-]+\)|#[\w.]+#|\]\((?:command:|https?:)[^)]*\))/;

export function pseudoLocalize(text: string): string {
  const accented = text
    .split(KEPT)
    .map((part, i) => (i % 2 === 1 ? part : [...part].map((c) => ACCENTED[PLAIN.indexOf(c)] ?? c).join('')))
    .join('');
  return `[${accented}]`;
}

/** The English letters left in a pseudo-localized string, outside what is kept intact. */
export function plainLetters(pseudo: string): string {
  return pseudo
    .split(KEPT)
    .filter((_, i) => i % 2 === 0)
    .join('')
    .replace(/[^A-Za-z]/g, '');
}

type Bundle = Record<string, string | { message: string; comment: string[] }>;

function localizeBundle(bundle: Bundle): Record<string, string> {
  return Object.fromEntries(
    Object.entries(bundle).map(([k, v]) => [k, pseudoLocalize(typeof v === 'string' ? v : v.message)]),
  );
}

/** Writes package.nls.qps-ploc.json and l10n/bundle.l10n.qps-ploc.json beside the English ones, at test time. */
export function writePseudoLocale(root: string): { nls: Record<string, string>; bundle: Record<string, string> } {
  const nls = localizeBundle(JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Bundle);
  const bundle = localizeBundle(JSON.parse(readFileSync(join(root, 'l10n/bundle.l10n.json'), 'utf8')) as Bundle);
  mkdirSync(join(root, 'l10n'), { recursive: true });
  writeFileSync(join(root, 'package.nls.qps-ploc.json'), JSON.stringify(nls, null, 2) + '\n');
  writeFileSync(join(root, 'l10n/bundle.l10n.qps-ploc.json'), JSON.stringify(bundle, null, 2) + '\n');
  return { nls, bundle };
}

/** The words of our English strings (bundle messages and package.nls.json values), lower-cased, 3 letters or more:
 * a screen in the pseudo-locale that shows one of them unaccented shows a string of ours that leaked. */
export function ourEnglishWords(root: string): Set<string> {
  const words = new Set<string>();
  for (const file of ['package.nls.json', 'l10n/bundle.l10n.json']) {
    const bundle = JSON.parse(readFileSync(join(root, file), 'utf8')) as Bundle;
    for (const [k, v] of Object.entries(bundle))
      for (const w of (file.startsWith('l10n') ? k : typeof v === 'string' ? v : v.message)
        .replace(KEPT_GLOBAL, ' ')
        .match(/[A-Za-z]{3,}/g) ?? [])
        words.add(w.toLowerCase());
  }
  return words;
}

const KEPT_GLOBAL = new RegExp(KEPT.source, 'g');

/** The English words of ours in `shown`, once the values it quotes (names, addresses, topics: data, not our
 * words), URLs, setting ids (wfs.…), variables, camelCase and hyphenated names and codicons are taken out. Empty
 * when everything of ours on screen came from the pseudo bundle. */
export function englishLeaks(shown: string, ours: Set<string>, values: string[] = []): string[] {
  // A text that is one of the values whole (a header's name in its cell) is data.
  if (values.includes(shown.trim())) return [];
  // Values first: a quoted title may hold a name the patterns below would cut out of it.
  let rest = shown;
  for (const v of [...values].sort((a, b) => b.length - a.length)) rest = rest.split(v).join(' ');
  rest = rest
    .replace(/\b[a-z][\w+.-]*:\/\/\S+/gi, ' ')
    .replace(/\bwfs(\.\w+)+/g, ' ')
    // Names, not words: variables ($WFS_WEBHOOK_TOKEN, $env:X, %X%), the protocol's camelCase fields (triggeredAt)
    // and hyphenated lower-case names (x-svc-topic, content-type).
    .replace(/\$(?:env:)?[A-Za-z_]\w*|%[A-Za-z_]\w*%/g, ' ')
    .replace(/\b[a-z]+(?:[A-Z][a-z0-9]*)+\b/g, ' ')
    .replace(/\b[a-z0-9]+(?:-[a-z0-9]+)+\b/g, ' ')
    .replace(KEPT_GLOBAL, ' ');
  return (rest.match(/[A-Za-z]{3,}/g) ?? []).filter((w) => ours.has(w.toLowerCase()));
}

// Issue #78, checked apart from its implementation, from the text alone: every package.json `contributes`
// string a user sees is a %key% that package.nls.json holds, and the webviews' scripts show no bare English.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = process.cwd();
const readJson = (name: string) => JSON.parse(readFileSync(join(root, name), 'utf8')) as Record<string, unknown>;

/** Keys whose string values VS Code shows to the user (menus, palette, settings editor, views, walkthrough). */
const SHOWN = new Set([
  'title',
  'shortTitle',
  'category',
  'description',
  'markdownDescription',
  'enumDescriptions',
  'markdownEnumDescriptions',
  'enumItemLabels',
  'deprecationMessage',
  'markdownDeprecationMessage',
  'contextualTitle',
  'label',
  'contents',
  'displayName',
  'userDescription',
  'altText',
]);

/** [path, value] of each string shown to users under `node`; a view's and a view container's `name` too. Tool input
 * schemas and model descriptions are read by the model, not shown. */
function shownStrings(node: unknown, path: string, out: [string, string][], key = ''): void {
  if (typeof node === 'string') {
    if (SHOWN.has(key) || (key === 'name' && /^contributes\.views\./.test(path))) out.push([path, node]);
    return;
  }
  if (Array.isArray(node)) {
    node.forEach((v, i) => shownStrings(v, `${path}[${i}]`, out, key));
    return;
  }
  if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) {
      if (k === 'inputSchema' || k === 'modelDescription') continue;
      shownStrings(v, `${path}.${k}`, out, k);
    }
}

describe('issue 78 (independent check): localizable contributes and webviews', () => {
  it('every user-facing contributes string in package.json is %key%, and package.nls.json has each key', () => {
    const pkg = readJson('package.json');
    const nls = readJson('package.nls.json');
    const found: [string, string][] = [];
    shownStrings(pkg.contributes, 'contributes', found);
    assert.ok(found.length > 100, `only ${found.length} contributes strings found: the walk is wrong`);
    const bare = found.filter(([, v]) => !/^%[^%\s]+%$/.test(v));
    assert.deepEqual(bare, [], 'contributes strings that are not %key%');
    const missing = found.map(([, v]) => v.slice(1, -1)).filter((k) => typeof nls[k] !== 'string' || !nls[k]);
    assert.deepEqual([...new Set(missing)], [], 'keys package.nls.json lacks');
  });

  it('the panel scripts show no English that skips the translation function', () => {
    const dir = join(root, 'media', 'panel');
    const scripts = readdirSync(dir).filter((f) => f.endsWith('.js'));
    assert.ok(scripts.includes('panel.js'));
    // Words the panel shows (from the issue and from using it); each occurrence as a quoted literal must be the
    // first argument of a translation call.
    const words = ['verified', 'refused', 'Replay', 'Pause', 'Resume', 'shown of', 'No deliveries', 'duplicate'];
    const leaks: string[] = [];
    for (const f of scripts) {
      const lines = readFileSync(join(dir, f), 'utf8').split('\n');
      lines.forEach((line, n) => {
        if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
        const literals = [...line.matchAll(/(['"`])((?:\\.|(?!\1).)*)\1/g)];
        for (const m of literals) {
          const text = m[2]!;
          if (!words.some((w) => text.includes(w))) continue;
          // A class list built in a template (`row${…}`, ' refused') names styles, not shown text.
          if (/^[a-z-]*\$\{/.test(text)) continue;
          const before = line.slice(0, m.index).replace(/\s+$/, '');
          if (!/\bt\($/.test(before) && !/\bt\(\s*$/.test(lines[n - 1] ?? '')) leaks.push(`${f}:${n + 1}: ${text}`);
        }
      });
    }
    assert.deepEqual(leaks, [], 'shown words not passed through l10n.t');
  });
});

// docs/security.md's Settings table lists every contributes.configuration property of package.json, with the scope
// package.json gives it (window when it gives none, as VS Code reads it) and whether restrictedConfigurations lists it,
// and says why. A setting added without a row, or a row that disagrees with the manifest, fails here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../../..');

export interface SettingRow {
  setting: string;
  scope: string;
  restricted: string;
  why: string;
}

/** The rows of the table under the heading `## Settings` (first column a `wfs.*` setting in backquotes). */
export function settingsTableRows(markdown: string): SettingRow[] {
  const section = markdown.split(/^## /m).find((s) => s.startsWith('Settings\n'));
  if (!section) return [];
  const rows: SettingRow[] = [];
  for (const line of section.split('\n')) {
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    const m = /^`(wfs\.[\w.]+)`$/.exec(cells[0] ?? '');
    if (m && cells.length === 4) rows.push({ setting: m[1]!, scope: cells[1]!, restricted: cells[2]!, why: cells[3]! });
  }
  return rows;
}

/** What the manifest says of each setting: its scope and whether it is restricted in untrusted workspaces. */
export function manifestSettings(manifest: {
  contributes: { configuration: unknown };
  capabilities?: { untrustedWorkspaces?: { restrictedConfigurations?: string[] } };
}): Map<string, { scope: string; restricted: string }> {
  const restricted = new Set(manifest.capabilities?.untrustedWorkspaces?.restrictedConfigurations ?? []);
  const out = new Map<string, { scope: string; restricted: string }>();
  for (const c of [manifest.contributes.configuration].flat() as { properties: Record<string, { scope?: string }> }[])
    for (const [key, p] of Object.entries(c.properties))
      out.set(key, { scope: p.scope ?? 'window', restricted: restricted.has(key) ? 'yes' : 'no' });
  return out;
}

/** Every disagreement between the table and the manifest, one line each. */
export function tableProblems(
  rows: readonly SettingRow[],
  settings: Map<string, { scope: string; restricted: string }>,
): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const r of rows) {
    if (seen.has(r.setting)) problems.push(`${r.setting}: two rows`);
    seen.add(r.setting);
    if (r.why.split(/\s+/).filter(Boolean).length < 3) problems.push(`${r.setting}: no reason given`);
    const m = settings.get(r.setting);
    if (!m) {
      problems.push(`${r.setting}: in the table, not in package.json`);
      continue;
    }
    if (r.scope !== m.scope) problems.push(`${r.setting}: the table says scope ${r.scope}, package.json ${m.scope}`);
    if (r.restricted !== m.restricted)
      problems.push(`${r.setting}: the table says restricted "${r.restricted}", package.json "${m.restricted}"`);
  }
  for (const key of settings.keys()) if (!seen.has(key)) problems.push(`${key}: in package.json, not in the table`);
  return problems;
}

describe('docs/security.md: the settings table', () => {
  it('lists every setting of package.json with its scope, whether it is restricted, and why', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const rows = settingsTableRows(readFileSync(join(ROOT, 'docs/security.md'), 'utf8'));
    assert.ok(rows.length > 0, 'docs/security.md has a "## Settings" table');
    assert.deepEqual(tableProblems(rows, manifestSettings(manifest)), []);
  });

  it('catches a setting without a row, a wrong scope, a wrong restricted column, and a row without a reason', () => {
    const manifest = {
      contributes: {
        configuration: [
          { properties: { 'wfs.a': { scope: 'machine' }, 'wfs.b': {} } },
          { properties: { 'wfs.c': { scope: 'application' } } },
        ],
      },
      capabilities: { untrustedWorkspaces: { restrictedConfigurations: ['wfs.a'] } },
    };
    const doc = [
      '## Settings',
      '',
      '| setting | scope | restricted | why |',
      '|---|---|---|---|',
      '| `wfs.a` | machine | no | names an address somewhere |',
      '| `wfs.b` | application | no | harmless local timing |',
      '| `wfs.z` | window | no | |',
      '',
      '## Next',
      '| `wfs.c` | application | no | outside the section |',
    ].join('\n');
    assert.deepEqual(tableProblems(settingsTableRows(doc), manifestSettings(manifest)), [
      'wfs.a: the table says restricted "no", package.json "yes"',
      'wfs.b: the table says scope application, package.json window',
      'wfs.z: no reason given',
      'wfs.z: in the table, not in package.json',
      'wfs.c: in package.json, not in the table',
    ]);
  });
});

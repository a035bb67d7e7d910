// One typed settings reader: each wfs.* setting has its type and package.json's default in settingValues.ts, a value
// that does not fit is read as the default (a number out of range as its nearest bound) and named, and no module but
// src/extension/settings.ts reads the settings from VS Code.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { SETTINGS } from '../../../src/extension/settingKeys';
import { SETTING_SPECS, settingValue, type SettingName } from '../../../src/extension/settingValues';

const ROOT = resolve(__dirname, '../../../..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
type Schema = { type?: string; default?: unknown; minimum?: number; maximum?: number; enum?: string[] };
const props: Record<string, Schema> = Object.assign(
  {},
  ...[manifest.contributes.configuration].flat().map((c: { properties: Record<string, Schema> }) => c.properties),
);
const names = Object.keys(SETTINGS) as SettingName[];

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Each getConfiguration call that can reach a wfs.* setting: with no section, or a section of wfs. */
export function settingsReads(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n)) {
      const callee = n.expression;
      const name = ts.isPropertyAccessExpression(callee)
        ? callee.name.text
        : ts.isIdentifier(callee)
          ? callee.text
          : '';
      const section = n.arguments[0];
      const other = section && ts.isStringLiteralLike(section) && !/^wfs(\.|$)/.test(section.text);
      if (name === 'getConfiguration' && !other)
        found.push(`${file}:${source.getLineAndCharacterOfPosition(n.getStart()).line + 1}: ${n.getText()}`);
    }
    ts.forEachChild(n, visit);
  };
  visit(source);
  return found;
}

describe('settings: one typed reader', () => {
  it("every setting has a reading, with package.json's default, type, bounds and values", () => {
    assert.deepEqual(Object.keys(SETTING_SPECS).sort(), [...names].sort());
    for (const name of names) {
      const schema = props[SETTINGS[name]]!;
      const spec = SETTING_SPECS[name] as { default: unknown; expected?: Record<string, unknown> };
      if (!spec.expected) continue; // checked by its feature, with its own sentences (environments, forward rules)
      assert.deepEqual(spec.default, schema.default, `${name}: the default`);
      const e = spec.expected;
      if (e.kind === 'integer') {
        assert.equal(schema.type, 'integer', name);
        assert.deepEqual([e.orOff ? 0 : e.min, e.max], [schema.minimum, schema.maximum], `${name}: bounds`);
      } else if (e.kind === 'one of') assert.deepEqual([...(e.values as string[])].sort(), [...schema.enum!].sort());
      else assert.equal(schema.type, e.kind === 'boolean' ? 'boolean' : 'string', name);
    }
  });

  it('an unset setting reads as its default, typed', () => {
    assert.equal(settingValue('receiverPort', undefined).value, 0);
    assert.equal(settingValue('confirmBilledStart', undefined).value, true);
    assert.equal(settingValue('receiverPublicAddress', undefined).value, 'vscode');
    assert.equal(settingValue('receiverPublicPathCheckSeconds', undefined).value, 120);
    assert.equal(settingValue('fixturesFolder', '  ').value, 'webhooks', 'empty text is the default too');
    assert.equal(settingValue('receiverTunnelHost', '').value, 'https://localtunnel.me');
    assert.equal(settingValue('sandboxProfile', ' ./p.json ').value, './p.json', 'text is trimmed');
    for (const name of names) assert.equal(settingValue(name, undefined).bad, undefined, name);
  });

  it('a value of the wrong type reads as the default and is named, with what was expected and what is used', () => {
    assert.deepEqual(settingValue('receiverPort', '3000'), {
      value: 0,
      bad: {
        name: 'receiverPort',
        key: 'wfs.receiver.port',
        value: '3000',
        expected: { kind: 'integer', min: 0, max: 65535 },
        used: 0,
      },
    });
    assert.equal(settingValue('confirmBilledStart', 'no').value, true, 'a billed start is still confirmed');
    assert.equal(settingValue('authRememberPasswordForSilentSignIn', 'yes').value, false, 'nothing remembered');
    assert.equal(settingValue('receiverHistoryStorage', 'cloud').bad?.used, 'disk');
    assert.equal(settingValue('receiverPublicAddress', 'ngrok').value, 'vscode');
    assert.deepEqual(settingValue('fixturesFolder', ['a']).bad?.expected, { kind: 'text' });
  });

  it('a number out of range reads as its nearest bound, a fraction rounded down; both named', () => {
    assert.deepEqual(
      [0, 5000, 2.7].map((v) => settingValue('receiverHistoryMemoryMiB', v).value),
      [1, 4096, 2],
    );
    assert.ok(settingValue('receiverHistoryMemoryMiB', 0).bad);
    assert.equal(settingValue('receiverHistoryMemoryMiB', 64).bad, undefined);
    // The public path check: 0 is off, 1 to 9 are read as 10.
    assert.deepEqual(
      [0, 3, 10, 300].map((v) => settingValue('receiverPublicPathCheckSeconds', v)),
      [
        { value: 0 },
        {
          value: 10,
          bad: {
            name: 'receiverPublicPathCheckSeconds',
            key: 'wfs.receiver.publicPathCheckSeconds',
            value: 3,
            expected: { kind: 'integer', min: 10, max: 86_400, orOff: true },
            used: 10,
          },
        },
        { value: 10 },
        { value: 300 },
      ],
    );
  });

  it('only src/extension/settings.ts reads the wfs settings from VS Code', () => {
    const reader = join(ROOT, 'src/extension/settings.ts');
    const outside = tsFiles(join(ROOT, 'src'))
      .filter((f) => f !== reader)
      .map((f) => ({ f, text: readFileSync(f, 'utf8') }))
      .filter(({ text }) => text.includes('getConfiguration'))
      .flatMap(({ f, text }) => settingsReads(relative(ROOT, f), text));
    assert.deepEqual(outside, [], 'read them through setting() / settingLayers() in src/extension/settings.ts');
    assert.ok(settingsReads('settings.ts', readFileSync(reader, 'utf8')).length > 0, 'the reader itself reads them');
  });

  it('the scan finds each way of reaching them, and lets other sections be', () => {
    const text = [
      "vscode.workspace.getConfiguration('wfs').get('receiver.port');",
      'vscode.workspace.getConfiguration("wfs.receiver").get("port");',
      'workspace.getConfiguration().get("wfs.receiver.port");',
      'getConfiguration(section);',
      "vscode.workspace.getConfiguration('http').get('proxy');",
      "vscode.workspace.getConfiguration('wfsx');",
    ].join('\n');
    assert.deepEqual(
      settingsReads('x.ts', text).map((l) => l.split(':')[1]),
      ['1', '2', '3', '4'],
    );
  });
});

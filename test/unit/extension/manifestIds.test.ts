// The extension names its commands and settings only through commandIds.ts and settingKeys.ts; those must match
// package.json exactly, or a command would be registered that no menu can run, or a setting read that no user can set.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS, INTERNAL_COMMANDS } from '../../../src/extension/commandIds';
import { SETTINGS } from '../../../src/extension/settingKeys';

const manifest = JSON.parse(readFileSync(join(__dirname, '../../../../package.json'), 'utf8'));
const contributed: string[] = manifest.contributes.commands.map((c: { command: string }) => c.command);
const settings: string[] = [manifest.contributes.configuration]
  .flat()
  .flatMap((c: { properties: Record<string, unknown> }) => Object.keys(c.properties));

describe('command ids and setting keys (package.json)', () => {
  it('every command constant is a contributed command, and every contributed command has a constant', () => {
    assert.deepEqual([...Object.values(COMMANDS)].sort(), [...contributed].sort());
  });

  it('internal commands are not listed in package.json, and do not reuse a contributed id', () => {
    for (const id of Object.values(INTERNAL_COMMANDS)) assert.ok(!contributed.includes(id), id);
  });

  it('every setting constant is a contributed setting, and every contributed setting has a constant', () => {
    assert.deepEqual([...Object.values(SETTINGS)].sort(), [...settings].sort());
  });

  it('each constant is named after its id, so a reader can tell which is which', () => {
    for (const [name, id] of Object.entries(COMMANDS)) assert.equal(id, `wfs.${name}`);
    for (const [name, key] of Object.entries(SETTINGS))
      assert.equal(
        key.slice('wfs.'.length).replace(/\.(\w)/g, (_, c: string) => c.toUpperCase()),
        name,
      );
  });
});

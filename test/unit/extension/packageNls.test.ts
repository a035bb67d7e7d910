// Every string package.json contributes that a person reads is a %key% of package.nls.json, so a language pack can
// translate it; every %key% has its English entry, and package.nls.json holds no entry nothing uses.
// User-facing, per contribution point (what VS Code shows in the UI or in a settings/tasks.json hover):
//   commands: title, shortTitle, category · viewsContainers: title · views: name, contextualTitle ·
//   viewsWelcome: contents · configuration and taskDefinitions schemas, at any depth: title, description,
//   markdownDescription, enumDescriptions, markdownEnumDescriptions, enumItemLabels, deprecationMessage,
//   markdownDeprecationMessage, patternErrorMessage, errorMessage, defaultSnippets' label and description ·
//   debuggers: label and snippets' label, description ·
//   authentication, problemMatchers, submenus, mcpServerDefinitionProviders: label ·
//   walkthroughs: title, description, steps' title, description, media altText ·
//   languageModelTools: displayName, userDescription.
// Not user-facing: ids, when clauses, groups, icons, regexps, paths, enum values, defaults, and the language model
// tools' modelDescription and inputSchema (read by the model, English like the MCP tools).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readJson } from '../helpers/localizedManifest';

const SCHEMA_TEXT = new Set([
  'title',
  'description',
  'markdownDescription',
  'enumDescriptions',
  'markdownEnumDescriptions',
  'enumItemLabels',
  'deprecationMessage',
  'markdownDeprecationMessage',
  'patternErrorMessage',
  'errorMessage',
]);

/** The fields a person reads, at a path of contributes: [point, key] → user-facing. */
function userFacing(path: string[]): boolean {
  const [point] = path;
  const key = path.filter((p) => !/^\d+$/.test(p)).at(-1)!;
  switch (point) {
    case 'commands':
      return ['title', 'shortTitle', 'category'].includes(key);
    case 'viewsContainers':
      return key === 'title';
    case 'views':
      return key === 'name' || key === 'contextualTitle';
    case 'viewsWelcome':
      return key === 'contents';
    case 'configuration':
    case 'taskDefinitions':
      // A snippet's label and description show in completion; its body is inserted as written.
      if (path.includes('defaultSnippets'))
        return path.at(-3) === 'defaultSnippets' && (key === 'label' || key === 'description');
      // A property may itself be named "title" or "description": only a schema keyword's value counts.
      return SCHEMA_TEXT.has(key) && path.at(-2) !== 'properties';
    case 'debuggers':
      // A snippet's body goes into launch.json as written, but its configuration's name is what Run and Debug lists.
      return (
        key === 'label' ||
        (key === 'description' && path.includes('configurationSnippets')) ||
        (key === 'name' && path.at(-2) === 'body')
      );
    case 'authentication':
    case 'problemMatchers':
    case 'submenus':
    case 'mcpServerDefinitionProviders':
      return key === 'label';
    case 'walkthroughs':
      return ['title', 'description', 'altText'].includes(key);
    case 'extension':
      return true;
    case 'languageModelTools':
      return !path.includes('inputSchema') && (key === 'displayName' || key === 'userDescription');
    default:
      return false;
  }
}

function strings(value: unknown, path: string[], out: { path: string[]; text: string }[]): typeof out {
  if (typeof value === 'string') out.push({ path, text: value });
  else if (Array.isArray(value)) value.forEach((v, i) => strings(v, [...path, String(i)], out));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) strings(v, [...path, k], out);
  return out;
}

const manifest = readJson('package.json') as {
  contributes: Record<string, unknown>;
  displayName: string;
  description: string;
};
const nls = readJson('package.nls.json') as Record<string, string>;
// The extension's own name and description show in the Extensions view: they count as contributes' strings do.
const all = [
  ...strings(manifest.contributes, [], []),
  { path: ['extension', 'displayName'], text: manifest.displayName },
  { path: ['extension', 'description'], text: manifest.description },
];
const KEY = /^%([\w.-]+)%$/;

describe('package.json contributes: user-facing strings are %key% of package.nls.json', () => {
  it('every user-facing contributes string is a %key%', () => {
    const bare = all.filter((s) => userFacing(s.path) && !KEY.test(s.text)).map((s) => s.path.join('.'));
    assert.deepEqual(bare, [], 'move these to package.nls.json and write "%key%" in package.json');
    // The rule sees the strings it is about: a rule that matched nothing would pass on any manifest.
    const counted = all.filter((s) => userFacing(s.path)).length;
    assert.ok(counted >= 150, `${counted} user-facing strings found`);
  });

  it('every %key% has an English entry, and every entry is used', () => {
    const used = new Set(all.map((s) => KEY.exec(s.text)?.[1]).filter((k): k is string => k !== undefined));
    const missing = [...used].filter((k) => typeof nls[k] !== 'string' || nls[k].trim() === '');
    assert.deepEqual(missing, [], 'add these keys to package.nls.json');
    const unused = Object.keys(nls).filter((k) => !used.has(k));
    assert.deepEqual(unused, [], 'remove these keys from package.nls.json (nothing in package.json names them)');
  });

  it('the .vsix ships the English strings: package.nls.json and the l10n bundle package.json names', () => {
    const ignore = readFileSync(join(__dirname, '../../../../.vscodeignore'), 'utf8');
    assert.match(ignore, /^!package\.nls\.json$/m);
    assert.equal((manifest as { l10n?: string }).l10n, './l10n');
    assert.match(ignore, /^!l10n\/bundle\.l10n\.json$/m);
  });

  it('a %key% appears only where a person reads it (ids, when clauses and values stay literal)', () => {
    const misplaced = all.filter((s) => KEY.test(s.text) && !userFacing(s.path)).map((s) => s.path.join('.'));
    assert.deepEqual(misplaced, []);
  });

  it('the rule tells a command title from its id, and a property named "description" from a description', () => {
    assert.equal(userFacing(['commands', '0', 'title']), true);
    assert.equal(userFacing(['commands', '0', 'command']), false);
    assert.equal(userFacing(['configuration', 'properties', 'wfs.x', 'markdownDescription']), true);
    assert.equal(userFacing(['configuration', 'properties', 'wfs.x', 'enumDescriptions', '1']), true);
    assert.equal(userFacing(['configuration', 'properties', 'wfs.x', 'enum', '1']), false);
    assert.equal(userFacing(['configuration', 'properties', 'wfs.x', 'items', 'properties', 'description']), false);
    assert.equal(userFacing(['configuration', 'properties', 'wfs.x', 'defaultSnippets', '0', 'label']), true);
    assert.equal(
      userFacing(['configuration', 'properties', 'wfs.x', 'defaultSnippets', '0', 'body', '0', 'name']),
      false,
    );
    assert.equal(userFacing(['languageModelTools', '0', 'modelDescription']), false);
    assert.equal(userFacing(['languageModelTools', '0', 'inputSchema', 'properties', 'id', 'description']), false);
  });
});

// package.json as VS Code shows it in English: each "%key%" replaced by its package.nls.json entry.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../../..');

export function readJson(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(ROOT, name), 'utf8')) as Record<string, unknown>;
}

function resolve(value: unknown, nls: Record<string, unknown>): unknown {
  if (typeof value === 'string') {
    const key = /^%(.+)%$/.exec(value)?.[1];
    return key !== undefined && typeof nls[key] === 'string' ? nls[key] : value;
  }
  if (Array.isArray(value)) return value.map((v) => resolve(v, nls));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, nls)]));
  return value;
}

export function localizedManifest(): any {
  return resolve(readJson('package.json'), readJson('package.nls.json'));
}

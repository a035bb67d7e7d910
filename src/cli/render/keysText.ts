// The human face of `wfs keys generate`: what was written where, and the two commands that use the folder next.
import { shellWord } from '../../core/presentation';
import type { Style } from './style';

type Line = Record<string, any>;
type Render = (line: Line, s: Style) => string;

const baseName = (path: unknown) => String(path).split(/[\\/]/).pop()!;

function keysWritten(l: Line, s: Style): string {
  const dir = shellWord(String(l.dir));
  const names: string[] = (l.files ?? []).map(baseName);
  const publicFiles = names.filter((n) => !n.startsWith('private-key'));
  const privateFiles = names.filter((n) => n.startsWith('private-key'));
  const rows: [string, string][] = [
    ['issuer', String(l.issuer)],
    ['audience', String(l.audience)],
    ['kid', String(l.kid)],
    ['public', publicFiles.join(', ')],
    ['private', `${privateFiles.join(', ')} ${s.dim('(readable by you alone)')}`],
  ];
  const width = Math.max(...rows.map(([a]) => a.length)) + 2;
  const next: [string, string][] = [
    [`wfs listen --trust-keys ${dir}`, 'a receiver that trusts this key'],
    [`wfs sign --body event.json --keys ${dir}`, 'the Authorization header for event.json'],
  ];
  const cmdWidth = Math.max(...next.map(([a]) => a.length)) + 2;
  return [
    `${s.green('✓')} Wrote a test key pair to ${s.bold(String(l.dir))}`,
    ...rows.map(([a, b]) => `  ${a.padEnd(width)}${b}`),
    s.dim('  A test key: never trust it outside tests.'),
    '  next:',
    ...next.map(([cmd, what]) => `    ${cmd.padEnd(cmdWidth)}${s.dim(what)}`),
  ].join('\n');
}

export const KEYS_RENDERERS: Record<string, Render> = { keys: keysWritten };

// The human face of `wfs listen`'s public path lines: a stop in red with what the service does and what to do, a
// return in green, a wake's check dimmed.
import type { Style } from './style';

type Line = Record<string, any>;

function publicPath(l: Line, s: Style): string {
  if (l.state === 'checking') return s.dim(`… ${l.message}`);
  const advice = l.meanwhile ? [s.dim(`    meanwhile: ${l.meanwhile}`), `    what to do: ${l.whatToDo}`] : [];
  if (l.state === 'not-reaching')
    return [
      `${s.red('✗')} ${s.bold('Public address not reaching the receiver')}: ${l.publicUrl}`,
      s.dim(`    ${l.detail}${l.failedHop ? ` (failed at: ${l.failedHop})` : ''}`),
      ...advice,
    ].join('\n');
  return [`${s.green('✓')} ${l.message}`, ...advice].join('\n');
}

export const PUBLIC_PATH_RENDERERS: Record<string, (l: Line, s: Style) => string> = {
  'public-path': publicPath,
};

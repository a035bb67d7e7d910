// Colour for the human face: on when stdout is a terminal, off with NO_COLOR (https://no-color.org), on with
// FORCE_COLOR (any value but 0/false) even in a CI log.
export interface Style {
  green(s: string): string;
  red(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

export function colourEnabled(env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return !['0', 'false'].includes(force.toLowerCase());
  return isTTY && env.TERM !== 'dumb';
}

const sgr = (open: number, close: number) => (s: string) => `\x1b[${open}m${s}\x1b[${close}m`;
const plain = (s: string) => s;

export function makeStyle(colour: boolean): Style {
  if (!colour) return { green: plain, red: plain, yellow: plain, cyan: plain, dim: plain, bold: plain };
  return {
    green: sgr(32, 39),
    red: sgr(31, 39),
    yellow: sgr(33, 39),
    cyan: sgr(36, 39),
    dim: sgr(2, 22),
    bold: sgr(1, 22),
  };
}

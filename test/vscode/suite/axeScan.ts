// axe-core (the field's WCAG checker) run inside a webview, or in the workbench, through the harness's webview
// inspector (test/vscode/harness/webviewInspector.mjs): its source is evaluated in the frame as a user's page would
// load a script, then `axe.run` reports what breaks WCAG 2.1 A and AA there. Test infrastructure only.
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { inWebview } from './webviewDom';

/** WCAG 2.1 levels A and AA: what teams that must meet accessibility rules are held to. */
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: number;
  /** The first few nodes' CSS selectors, and why the first one fails. */
  targets: string[];
  why: string;
}

/** What axe found in one frame: the rules it checked that passed (so a scan of nothing shows), and what failed. */
export interface AxeScan {
  rulesPassed: number;
  violations: AxeViolation[];
}

/** A theme as `workbench.colorTheme` names it, and the kind VS Code gives the workbench and each webview. */
export interface Theme {
  id: string;
  /** The class on `.monaco-workbench`. */
  workbench: 'vs' | 'vs-dark' | 'hc-black' | 'hc-light';
  /** A webview body's `data-vscode-theme-kind`. */
  webview: string;
}

export const THEMES: Theme[] = [
  { id: 'Light Modern', workbench: 'vs', webview: 'vscode-light' },
  { id: 'Dark Modern', workbench: 'vs-dark', webview: 'vscode-dark' },
  { id: 'Default High Contrast', workbench: 'hc-black', webview: 'vscode-high-contrast' },
  { id: 'Default High Contrast Light', workbench: 'hc-light', webview: 'vscode-high-contrast-light' },
];

let axeSource: string | undefined;

/** axe's source, wrapped so that a page's own AMD or CommonJS globals cannot capture it: it sets `window.axe`. */
function axeScript(): string {
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  return `(function (define, module, exports) {\n${axeSource}\n}).call(window)`;
}

/** Switches the colour theme, and waits until the frame holding `has` shows its kind (the list alternates kinds). */
export async function useTheme(theme: Theme, has: string, inWorkbench = false): Promise<void> {
  await vscode.workspace
    .getConfiguration('workbench')
    .update('colorTheme', theme.id, vscode.ConfigurationTarget.Global);
  const shown = inWorkbench
    ? `document.querySelector('.monaco-workbench')?.classList.contains(${JSON.stringify(theme.workbench)})`
    : `document.body.dataset.vscodeThemeKind === ${JSON.stringify(theme.webview)}`;
  await inWebview<boolean>(has, 'true', shown);
}

/**
 * The WCAG 2.1 A/AA violations axe finds in the frame that holds `has` (all of it, or only `include`, a CSS
 * selector), once `until` holds there.
 */
export function axeViolations(has: string, opts: { include?: string; until?: string } = {}): Promise<AxeScan> {
  const context = opts.include ? `{ include: [[${JSON.stringify(opts.include)}]] }` : 'document';
  const run = `window.axe.run(${context}, { runOnly: { type: 'tag', values: ${JSON.stringify(WCAG_21_AA)} }, resultTypes: ['violations'] })
    .then((r) => ({ rulesPassed: r.passes.length, violations: r.violations.map((v) => ({
      id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length,
      targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
      why: (v.nodes[0] && v.nodes[0].failureSummary || '').slice(0, 300),
    })) }))`;
  return inWebview<AxeScan>(has, `(window.axe ? 0 : ${axeScript()}, ${run})`, opts.until, 60_000);
}

/** The violations that fail a view: serious or critical. */
export function blocking(violations: AxeViolation[]): AxeViolation[] {
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** One line per violation: rule, impact, node count, and where. */
export function describeViolations(violations: AxeViolation[]): string {
  return violations
    .map((v) => `${v.id} (${v.impact}, ${v.nodes} nodes: ${v.targets.join(' | ')}) ${v.why.replace(/\s+/g, ' ')}`)
    .join('\n');
}

export interface FocusLook {
  selector: string;
  focused: boolean;
  focusVisible: boolean;
  outlineStyle: string;
  outlineWidth: string;
  outlineColor: string;
}

/**
 * Focuses each element (the first match of each selector) in the frame holding `has` as the keyboard would, and
 * reads the outline it then shows (computed style). `ring` names, per selector, the element whose outline shows
 * that focus when it is not the focused one (a listbox's active row).
 */
export function focusLooks(has: string, selectors: string[], ring: Record<string, string> = {}): Promise<FocusLook[]> {
  const expression = `(() => ${JSON.stringify(selectors)}.map((selector) => {
    const el = document.querySelector(selector);
    if (!el) return { selector, focused: false, focusVisible: false, outlineStyle: 'none', outlineWidth: '0px', outlineColor: '' };
    el.focus({ focusVisible: true });
    const shown = document.querySelector(${JSON.stringify(ring)}[selector] || selector) || el;
    const s = getComputedStyle(shown);
    return { selector, focused: document.activeElement === el, focusVisible: el.matches(':focus-visible'),
      outlineStyle: s.outlineStyle, outlineWidth: s.outlineWidth, outlineColor: s.outlineColor };
  }))()`;
  return inWebview<FocusLook[]>(has, expression);
}

/** Whether an outline can be seen: drawn, of some width, in a colour that is not fully transparent. */
export function outlineShows(look: FocusLook): boolean {
  const transparent = look.outlineColor === 'transparent' || /rgba\([^)]*,\s*0\)$/.test(look.outlineColor);
  return look.outlineStyle !== 'none' && parseFloat(look.outlineWidth) > 0 && !transparent && look.outlineColor !== '';
}

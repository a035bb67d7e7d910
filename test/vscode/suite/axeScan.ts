// axe-core (the field's WCAG checker) run inside a webview, or in the workbench, through the harness's webview
// inspector (test/vscode/harness/webviewInspector.mjs): the inspector evaluates axe's source in the frame as a user's
// page would load a script, then `axe.run` reports what breaks WCAG 2.1 A and AA there. The source, the rules and the
// report's shape are test/vscode/harness/axeRun.mjs's, which the walkthrough's scans of the packaged .vsix share.
// Test infrastructure only.
import * as vscode from 'vscode';
import { inWebview } from './webviewDom';

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
export async function axeViolations(has: string, opts: { include?: string; until?: string } = {}): Promise<AxeScan> {
  const base = process.env.WFS_TEST_WEBVIEW_URL;
  if (!base) throw new Error('WFS_TEST_WEBVIEW_URL is not set: run the suite with npm run test:vscode');
  // `axe` asks the inspector for axeRun.mjs's scan in place of an expression.
  const res = await fetch(`${base}/evaluate`, {
    method: 'POST',
    body: JSON.stringify({ has, axe: { include: opts.include }, until: opts.until, timeoutMs: 60_000 }),
  });
  const body = (await res.json()) as { value?: AxeScan; error?: string };
  if (!res.ok) throw new Error(`scanning the webview failed: ${body.error}`);
  return body.value as AxeScan;
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

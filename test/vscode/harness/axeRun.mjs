// axe-core (the field's WCAG checker) in a webview's frame: one source, one rule set and one report shape for the
// host suite's scans (test/vscode/suite/axeScan.ts, through the webview inspector) and the walkthrough's (the
// packaged .vsix, through Playwright's own frames). axe's source is evaluated in the frame as a user's page would
// load a script (CDP evaluation, which the webview's CSP allows; a <script> tag would need its nonce).
// Test infrastructure only; nothing ships.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** WCAG 2.1 levels A and AA: what teams that must meet accessibility rules are held to. */
export const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * A theme as `workbench.colorTheme` names it, as the theme picker (Preferences: Color Theme) labels it, the kind
 * VS Code gives each webview (`data-vscode-theme-kind`), and the class it puts on `.monaco-workbench`.
 */
export const WEBVIEW_THEMES = {
  light: { id: 'Light Modern', label: 'Light Modern', webview: 'vscode-light', workbench: 'vs' },
  dark: { id: 'Dark Modern', label: 'Dark Modern', webview: 'vscode-dark', workbench: 'vs-dark' },
  highContrast: {
    id: 'Default High Contrast',
    label: 'Dark High Contrast',
    webview: 'vscode-high-contrast',
    workbench: 'hc-black',
  },
  highContrastLight: {
    id: 'Default High Contrast Light',
    label: 'Light High Contrast',
    webview: 'vscode-high-contrast-light',
    workbench: 'hc-light',
  },
};

/** An expression for the theme kind a frame shows: its webview body's, or (`workbench`) the workbench's class. */
export function themeKindExpression(workbench = false) {
  if (!workbench) return 'document.body.dataset.vscodeThemeKind';
  const classes = JSON.stringify(Object.values(WEBVIEW_THEMES).map((t) => t.workbench));
  return `${classes}.find((k) => document.querySelector('.monaco-workbench')?.classList.contains(k))`;
}

const require = createRequire(import.meta.url);
let axeSource;

/** axe's source, wrapped so that a page's own AMD or CommonJS globals cannot capture it: it sets `window.axe`. */
function axeScript() {
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  return `(function (define, module, exports) {\n${axeSource}\n}).call(window)`;
}

/**
 * An expression that loads axe into the frame (once) and resolves with `{ rulesPassed, violations }`: the WCAG 2.1
 * A/AA rules that passed (so a scan of nothing shows) and each violation with its impact, node count, the first
 * three nodes' selectors and why the first one fails. `include`, a CSS selector, limits it to part of the page.
 */
export function axeExpression(include) {
  const context = include ? `{ include: [[${JSON.stringify(include)}]] }` : 'document';
  const run = `window.axe.run(${context}, { runOnly: { type: 'tag', values: ${JSON.stringify(WCAG_21_AA)} }, resultTypes: ['violations'] })
    .then((r) => ({ rulesPassed: r.passes.length, violations: r.violations.map((v) => ({
      id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length,
      targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
      why: (v.nodes[0] && v.nodes[0].failureSummary || '').slice(0, 300),
    })) }))`;
  return `(window.axe ? 0 : ${axeScript()}, ${run})`;
}

/** The violations that fail a view: serious or critical. */
export function blocking(violations) {
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** One line per violation: rule, impact, node count, and where. */
export function describeViolations(violations) {
  return violations
    .map((v) => `${v.id} (${v.impact}, ${v.nodes} nodes: ${v.targets.join(' | ')}) ${v.why.replace(/\s+/g, ' ')}`)
    .join('\n');
}

/**
 * The frame of `page` whose document holds `has` (webviews are nested iframes), once `until` (an expression) holds
 * there. A frame replaced mid-way (a report set anew) is searched for again until the deadline.
 */
export async function frameHolding(page, has, until = 'true', timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const frame of page.frames()) {
      try {
        if ((await frame.$(has)) && (await frame.evaluate(until))) return frame;
      } catch {
        // a frame navigating away, or replaced
      }
    }
    if (Date.now() > deadline) throw new Error(`no webview frame holds ${has} where ${until}`);
    await page.waitForTimeout(50);
  }
}

/** axe's WCAG 2.1 A/AA scan of the frame of `page` holding `has` (all of it, or only `include`). */
export async function scanFrame(page, has, { include, until, timeoutMs } = {}) {
  const frame = await frameHolding(page, has, until, timeoutMs);
  return frame.evaluate(axeExpression(include));
}

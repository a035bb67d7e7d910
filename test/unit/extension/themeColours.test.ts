// The webviews take every colour from VS Code's theme (var(--vscode-…)), so that light, dark and high-contrast
// themes, and the user's own, give them readable colours: a literal colour (#hex, rgb(), hsl(), a named colour) is
// allowed only as the fallback inside a var(--vscode-…).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROBE_STYLE } from '../../../src/extension/probe/probeStyle';

/** CSS's named colours (CSS Color 4), besides the keywords that name no colour of their own. */
const NAMED = `aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown
burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan darkgoldenrod
darkgray darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon
darkseagreen darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink deepskyblue dimgray dimgrey
dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite gold goldenrod gray green greenyellow grey
honeydew hotpink indianred indigo ivory khaki lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral
lightcyan lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen lightskyblue
lightslategray lightslategrey lightsteelblue lightyellow lime limegreen linen magenta maroon mediumaquamarine
mediumblue mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen mediumturquoise
mediumvioletred midnightblue mintcream mistyrose moccasin navajowhite navy oldlace olive olivedrab orange orangered
orchid palegoldenrod palegreen palevioletred papayawhip peachpuff peru pink plum powderblue purple rebeccapurple red
rosybrown royalblue saddlebrown salmon sandybrown seagreen seashell sienna silver skyblue slateblue slategray
slategrey snow springgreen steelblue tan teal thistle tomato turquoise violet wheat white whitesmoke yellow
yellowgreen`.split(/\s+/);

/** A value with each var(--vscode-…) taken out, fallback included (parentheses nest). */
function withoutThemeVariables(value: string): string {
  let out = '';
  for (let i = 0; i < value.length;) {
    if (!/^var\(\s*--vscode-/i.test(value.slice(i))) {
      out += value[i++];
      continue;
    }
    i = value.indexOf('(', i) + 1;
    for (let depth = 1; depth > 0 && i < value.length; i++) {
      if (value[i] === '(') depth++;
      else if (value[i] === ')') depth--;
    }
    out += ' ';
  }
  return out;
}

/** Each literal colour in a style sheet's declarations, outside var(--vscode-…), with its property. */
function literalColours(css: string): string[] {
  const found: string[] = [];
  const text = css.replace(/\/\*[\s\S]*?\*\//g, ' ');
  // A declaration: `property: value` up to `;` or `}`; selectors (which may hold #ids) come before a `{`.
  for (const m of text.matchAll(/([-\w]+)\s*:\s*([^;{}]+)(?=[;}])/g)) {
    const [, property, value] = m as unknown as [string, string, string];
    const rest = withoutThemeVariables(value);
    const hex = rest.match(/#[0-9a-f]{3,8}\b/gi) ?? [];
    const fns = rest.match(/\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\s*\(/gi) ?? [];
    const words = (rest.match(/\b[a-z]+\b/gi) ?? []).filter((w) => NAMED.includes(w.toLowerCase()));
    for (const c of [...hex, ...fns, ...words]) found.push(`${property}: ${c.trim()}`);
  }
  return found;
}

describe('webview colours come only from the theme', () => {
  it('media/panel/panel.css (the webhook panel and the audit scorecard) holds no literal colour', () => {
    const css = readFileSync(join(__dirname, '..', '..', '..', '..', 'media', 'panel', 'panel.css'), 'utf8');
    assert.ok(css.includes('var(--vscode-'), 'the style sheet was read');
    assert.deepEqual(literalColours(css), []);
  });

  it("the contract report's style holds no literal colour", () => {
    assert.ok(PROBE_STYLE.includes('var(--vscode-'));
    assert.deepEqual(literalColours(PROBE_STYLE), []);
  });

  it('the check finds #hex, rgb(), hsl() and named colours, and allows them only as a theme variable fallback', () => {
    const css = `#f-text, .a { color: #fff; background: rgb(0, 0, 0); }
      .b { border: 1px solid Red } .c { outline-color: hsl(0 0% 0%); box-shadow: 0 0 2px rgba(0,0,0,.5) }
      /* a comment may say #000 or red */
      .d { color: var(--vscode-foreground, #333); border: 1px solid var(--vscode-x, var(--vscode-y, rgb(1, 2, 3))); }
      .e { background: transparent; color: currentColor; border-color: inherit; }
      .f { color: var(--my-own, #123456); }`;
    assert.deepEqual(literalColours(css), [
      'color: #fff',
      'background: rgb(',
      'border: Red',
      'outline-color: hsl(',
      'box-shadow: rgba(',
      'color: #123456',
    ]);
  });
});

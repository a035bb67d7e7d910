// Finds English the webview scripts (media/panel/*.js) would show without the l10n bundle: a string or template
// literal with words that is not the message of an l10n.t(...) call (dom.js's wfsL10n). Shown: what el() writes as
// text, a title, aria-label or placeholder, a textContent, the name column of a kvTable pair, and any literal that
// reads as prose (words with spaces, or a capitalised word) wherever it is. Not shown: tag and class names, element
// ids and selectors, event and key names, message types, comparisons, and a field name in camelCase.
import ts from 'typescript';

export interface ShownLiteral {
  file: string;
  line: number;
  text: string;
}

/** Calls whose literal arguments are names the user never reads (ids, selectors, events, classes, attributes). */
const NAME_CALLS = new Set([
  '$',
  'getElementById',
  'querySelector',
  'querySelectorAll',
  'closest',
  'addEventListener',
  'removeEventListener',
  'getAttribute',
  'removeAttribute',
  'hasAttribute',
  'toggle',
  'add',
  'remove',
  'contains',
  'postMessage',
  'createElement',
  'Event',
  'KeyboardEvent',
]);
const SHOWN_ATTRIBUTES = new Set(['title', 'aria-label', 'placeholder', 'alt', 'aria-description']);
const SHOWN_PROPERTIES = new Set(['textContent', 'innerText', 'title', 'placeholder', 'ariaLabel', 'value']);

const hasWords = (text: string) => /[A-Za-z]{2}/.test(text);
const isFieldName = (text: string) => /^[a-z]+(?:[A-Z][a-z0-9]*)+$/.test(text);
/** Words a reader reads: two words with a space between, or a capitalised word. */
const readsAsProse = (text: string) =>
  /[A-Za-z]{2,}[,.:;!?)]?\s+\(?[A-Za-z]/.test(text) || /(^|\s)[A-Z][a-z]{2,}/.test(text);

function calleeName(e: ts.Expression): string {
  return ts.isPropertyAccessExpression(e) ? e.name.text : ts.isIdentifier(e) ? e.text : '';
}

function isL10nT(e: ts.Expression): boolean {
  return ts.isPropertyAccessExpression(e) && e.name.text === 't' && /l10n$/i.test(e.expression.getText());
}

type Position = 'shown' | 'name' | 'translated' | 'other';

/** Where a literal sits, judged by its nearest telling ancestor. */
function position(node: ts.Node): Position {
  let child: ts.Node = node;
  for (let p = node.parent; p && !ts.isSourceFile(p); child = p, p = p.parent) {
    if (ts.isCallExpression(p) || ts.isNewExpression(p)) {
      const name = calleeName(p.expression);
      const i = (p.arguments ?? ts.factory.createNodeArray()).indexOf(child as ts.Expression);
      if (i < 0) continue;
      if (isL10nT(p.expression)) return i === 0 ? 'translated' : 'other';
      if (NAME_CALLS.has(name)) return 'name';
      if (name === 'setAttribute')
        return i === 0 ? 'name' : SHOWN_ATTRIBUTES.has(p.arguments![0]!.getText().slice(1, -1)) ? 'shown' : 'other';
      if (name === 'el') return i === 1 ? 'shown' : i === 3 ? 'other' : 'name';
      return 'other';
    }
    if (ts.isPropertyAssignment(p)) {
      if (child === p.name) return 'name';
      const key = p.name.getText().replace(/^['"]|['"]$/g, '');
      if (SHOWN_ATTRIBUTES.has(key)) return 'shown';
      if (key === 'type' || key === 'action' || key === 'role') return 'name';
      continue;
    }
    if (ts.isBinaryExpression(p)) {
      const op = p.operatorToken.kind;
      if ([ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken].includes(op))
        return 'name';
      if (op === ts.SyntaxKind.EqualsToken && child === p.right) {
        const target = ts.isPropertyAccessExpression(p.left) ? p.left.name.text : '';
        if (target === 'className') return 'name';
        if (SHOWN_PROPERTIES.has(target)) return 'shown';
      }
      continue;
    }
    if (ts.isCaseClause(p) || ts.isElementAccessExpression(p)) return 'name';
    // [name, value]: a kvTable pair's name column.
    if (ts.isArrayLiteralExpression(p) && p.elements.length === 2 && p.elements[0] === child) {
      if (ts.isArrayLiteralExpression(p.parent) || ts.isCallExpression(p.parent)) return 'shown';
    }
    if (ts.isStatement(p)) return 'other';
  }
  return 'other';
}

function literalText(n: ts.Node): string | undefined {
  if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) return n.text;
  if (ts.isTemplateExpression(n)) return [n.head.text, ...n.templateSpans.map((s) => s.literal.text)].join('…');
  return undefined;
}

export function findShownLiterals(file: string, source: string): ShownLiteral[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const found: ShownLiteral[] = [];
  const visit = (n: ts.Node): void => {
    const text = literalText(n);
    if (text !== undefined && hasWords(text) && !isFieldName(text)) {
      const where = position(n);
      if (where === 'shown' || (where === 'other' && readsAsProse(text)))
        found.push({ file, line: sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1, text });
    }
    // A template's own parts are judged above, as one; its substitutions are visited.
    if (ts.isTemplateExpression(n)) return n.templateSpans.forEach((s) => visit(s.expression));
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

// Finds user-facing strings in the extension's source that a translator cannot reach: a string or template literal
// (or a concatenation holding one) written where VS Code shows it, instead of a vscode.l10n.t(...) call or a variable.
// Where: a show(Information|Warning|Error)Message argument; showQuickPick's or createQuickPick's title and
// placeholder; showInputBox's and createInputBox's prompt, title and placeholder; the label of a new TreeItem; a
// thrown error's message (new Error(…), new SettingError(key, …): they reach a notification); what is assigned to a
// tree or status bar item's label, description or tooltip; a quick pick item's label and detail (any object literal's
// `label` and `detail`); withProgress's title; a new MarkdownString; a line written to an output channel (a call of
// appendLine, append, info, warn, error, debug or trace on something named …output, …log or …channel); a language
// model tool's invocationMessage and its confirmationMessages' title and message; a status bar message, an input
// box's validateInput answer, a Diagnostic's and a TestMessage's text, and showError's operation.
// A literal without a word (an icon such as "$(check)", a separator, '') is not text to translate.
import ts from 'typescript';

export interface BareString {
  file: string;
  line: number;
  where: string;
  text: string;
}

const INPUT_FIELDS = new Set(['title', 'placeholder', 'placeHolder', 'prompt']);
const ITEM_FIELDS = new Set(['label', 'description', 'tooltip']);
const PICK_ITEM_FIELDS = new Set(['label', 'detail']);
const OUTPUT_METHODS = new Set(['appendLine', 'append', 'info', 'warn', 'error', 'debug', 'trace']);

function hasWords(text: string): boolean {
  return /[A-Za-z]{2}/.test(text.replace(/\$\([\w~-]+\)/g, ''));
}

/** The literal text of a bare expression, or undefined when the expression is a call or a variable. */
function bareText(e: ts.Expression): string | undefined {
  while (ts.isParenthesizedExpression(e)) e = e.expression;
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return hasWords(e.text) ? e.text : undefined;
  if (ts.isTemplateExpression(e)) {
    const text = [e.head.text, ...e.templateSpans.map((s) => s.literal.text)].join('…');
    return hasWords(text) ? text : undefined;
  }
  if (ts.isConditionalExpression(e)) return bareText(e.whenTrue) ?? bareText(e.whenFalse);
  if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken)
    return bareText(e.left) ?? bareText(e.right);
  if (
    ts.isBinaryExpression(e) &&
    [ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken].includes(e.operatorToken.kind)
  )
    return bareText(e.right);
  return undefined;
}

function calleeName(e: ts.LeftHandSideExpression): string {
  return ts.isPropertyAccessExpression(e) ? e.name.text : ts.isIdentifier(e) ? e.text : '';
}

export function findBareStrings(file: string, source: string): BareString[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: BareString[] = [];
  const check = (e: ts.Expression | undefined, where: string) => {
    const text = e && bareText(e);
    if (text !== undefined)
      found.push({ file, line: sf.getLineAndCharacterOfPosition(e!.getStart(sf)).line + 1, where, text });
  };
  const checkOptions = (e: ts.Expression | undefined, where: string) => {
    if (!e || !ts.isObjectLiteralExpression(e)) return;
    for (const p of e.properties)
      if (ts.isPropertyAssignment(p) && INPUT_FIELDS.has(p.name.getText(sf)))
        check(p.initializer, `${where} ${p.name.getText(sf)}`);
  };
  // The names bound to createQuickPick()/createInputBox(): their title, placeholder and prompt are shown.
  const inputs = new Set<string>();
  const visit = (n: ts.Node): void => {
    if (ts.isVariableDeclaration(n) && n.initializer && ts.isCallExpression(n.initializer)) {
      const name = calleeName(n.initializer.expression);
      if ((name === 'createQuickPick' || name === 'createInputBox') && ts.isIdentifier(n.name)) inputs.add(n.name.text);
    }
    if (ts.isCallExpression(n)) {
      const name = calleeName(n.expression);
      if (/^show(Information|Warning|Error)Message$/.test(name)) n.arguments.forEach((a) => check(a, name));
      if (name === 'showQuickPick') checkOptions(n.arguments[1], name);
      if (name === 'showInputBox') checkOptions(n.arguments[0], name);
      if (name === 'withProgress') checkOptions(n.arguments[0], name);
      if (name === 'setStatusBarMessage') check(n.arguments[0], name);
      // showError(output, operation, err): the operation titles the notification.
      if (name === 'showError') check(n.arguments[1], `${name} operation`);
      // A line of the output channel: the object is an output, log or channel (s.output.warn, this.log.info).
      // (or output[ok ? 'info' : 'warn'](…)).
      const callee = n.expression;
      const channel =
        ts.isPropertyAccessExpression(callee) || ts.isElementAccessExpression(callee)
          ? callee.expression.getText(sf)
          : '';
      const method = ts.isElementAccessExpression(callee) ? 'info' : name;
      if (OUTPUT_METHODS.has(method) && /(output|log|channel)$/i.test(channel))
        n.arguments.forEach((a) => check(a, `output ${method}`));
    }
    if (ts.isNewExpression(n)) {
      const name = calleeName(n.expression);
      if (name === 'TreeItem' || name === 'MarkdownString' || name === 'TestMessage')
        check(n.arguments?.[0], `new ${name}`);
      if (name === 'Diagnostic') check(n.arguments?.[1], `new ${name}`);
      if (/Error$|^WaitsForTrust$/.test(name)) n.arguments?.forEach((a) => check(a, `new ${name}`));
    }
    if (
      ts.isPropertyAssignment(n) &&
      PICK_ITEM_FIELDS.has(n.name.getText(sf)) &&
      ts.isObjectLiteralExpression(n.parent)
    )
      check(n.initializer, `item ${n.name.getText(sf)}`);
    // An input box's check: what it returns is shown under the box.
    if (
      ts.isPropertyAssignment(n) &&
      n.name.getText(sf) === 'validateInput' &&
      ts.isArrowFunction(n.initializer) &&
      !ts.isBlock(n.initializer.body)
    )
      check(n.initializer.body, 'validateInput');
    // A language model tool's prepareInvocation: its progress line and its confirmation's title and message.
    if (ts.isPropertyAssignment(n) && n.name.getText(sf) === 'invocationMessage')
      check(n.initializer, 'invocationMessage');
    if (
      ts.isPropertyAssignment(n) &&
      ['title', 'message'].includes(n.name.getText(sf)) &&
      ts.isObjectLiteralExpression(n.parent) &&
      ts.isPropertyAssignment(n.parent.parent) &&
      n.parent.parent.name.getText(sf) === 'confirmationMessages'
    )
      check(n.initializer, `confirmationMessages ${n.name.getText(sf)}`);
    if (
      ts.isBinaryExpression(n) &&
      n.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isPropertyAccessExpression(n.left) &&
      ITEM_FIELDS.has(n.left.name.text)
    )
      check(n.right, `.${n.left.name.text} =`);
    if (
      ts.isBinaryExpression(n) &&
      n.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isPropertyAccessExpression(n.left) &&
      INPUT_FIELDS.has(n.left.name.text) &&
      ts.isIdentifier(n.left.expression) &&
      inputs.has(n.left.expression.text)
    )
      check(n.right, `${n.left.expression.text}.${n.left.name.text}`);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

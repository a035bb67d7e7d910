// Every message a translator words is whole (issue #78: placeholders for values, never string concatenation): a
// piece glued into another message (", duplicate", " (alias {0})", " · tunnel open") cannot be reordered, inflected
// or dropped in another language, and neither can a word's ending passed as a value ('deliver{1}'). Optional parts
// are a message per combination; a run of sentences is a sentence per message joined by a template such as
// '{0} {1}', which a translator may word without the space.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import ts from 'typescript';

const ROOT = join(__dirname, '../../../..');

/** Why a message is a piece rather than a whole message, or undefined when it is whole. A message that is exactly
 * `{0}` passes a value (a Said, a name) through as it is. */
function pieceReason(message: string): string | undefined {
  if (message === '{0}') return undefined;
  if (/^\s/.test(message)) return 'starts with whitespace';
  if (/\s$/.test(message)) return 'ends with whitespace';
  if (/^[,;·—–]/.test(message)) return 'starts with , ; · — or –';
  if (message.includes('}{')) return 'holds two adjacent placeholders';
  // 'deliver{1}' with 'y' or 'ies': a word's ending passed as a value. A unit after a number ('{0}h') and a name's
  // suffix after a capital ('{0}/NAME{1}', NAME standing for what the user types) are fine.
  if (/\p{Ll}\{\d+\}/u.test(message)) return 'glues a placeholder to the end of a word';
  return undefined;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** `l10n.t(…)` or `vscode.l10n.t(…)`: the extension's messages. */
function isL10nT(e: ts.Expression): boolean {
  if (!ts.isPropertyAccessExpression(e) || e.name.text !== 't') return false;
  const o = e.expression;
  return (ts.isIdentifier(o) && o.text === 'l10n') || (ts.isPropertyAccessExpression(o) && o.name.text === 'l10n');
}

/** `said(…)`: core's messages for people. */
const isSaid = (e: ts.Expression): boolean => ts.isIdentifier(e) && e.text === 'said';

/** Each literal message of a call `is` accepts in `text`, with its line. */
function literalMessages(text: string, is: (callee: ts.Expression) => boolean): { line: number; message: string }[] {
  const sf = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: { line: number; message: string }[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n) && is(n.expression)) {
      const first = n.arguments[0];
      if (first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first)))
        found.push({ line: sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1, message: first.text });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

function piecesIn(dir: string, is: (callee: ts.Expression) => boolean): { count: number; pieces: string[] } {
  const all = tsFiles(join(ROOT, dir)).flatMap((f) =>
    literalMessages(readFileSync(f, 'utf8'), is).map((m) => ({ ...m, at: `${relative(ROOT, f)}:${m.line}` })),
  );
  return {
    count: all.length,
    pieces: all.flatMap((m) => {
      const why = pieceReason(m.message);
      return why ? [`${m.at} ${why}: ${JSON.stringify(m.message)}`] : [];
    }),
  };
}

const FIX =
  "write a whole message per combination of the optional parts, or join whole sentences with vscode.l10n.t('{0} {1}', a, b) (said('{0} {1}', a, b) in core)";

describe('l10n: every message is whole, never a piece glued into another', () => {
  it('every vscode.l10n.t / l10n.t message in src/extension', () => {
    const { count, pieces } = piecesIn('src/extension', isL10nT);
    assert.ok(count > 300, `${count} messages read`);
    assert.deepEqual(pieces, [], FIX);
  });

  it('every said() message in src/core', () => {
    const { count, pieces } = piecesIn('src/core', isSaid);
    assert.ok(count > 40, `${count} messages read`);
    assert.deepEqual(pieces, [], FIX);
  });

  it('the scan finds the messages of l10n.t, vscode.l10n.t and said, literal or template, on their lines', () => {
    const text = [
      "vscode.l10n.t(' · tunnel open');",
      'l10n.t(`Saved {0}`, name);',
      "said(', nor with {0}', x);",
      'other.t(" skipped");',
      'vscode.l10n.t(message);',
    ].join('\n');
    assert.deepEqual(literalMessages(text, isL10nT), [
      { line: 1, message: ' · tunnel open' },
      { line: 2, message: 'Saved {0}' },
    ]);
    assert.deepEqual(literalMessages(text, isSaid), [{ line: 3, message: ', nor with {0}' }]);
  });

  it('the rule: whole messages pass, each kind of piece fails', () => {
    for (const whole of [
      '{0}',
      '{0} {1}',
      'Webhook {0}, {1}, answered {2}, duplicate',
      'Signed in to {0} as {1} (alias {2})',
      '{0} Receiver · tunnel open',
      'Webhook receiver\nLocal: {0}\nTunnel: {1}\nClick to copy the local URL.',
      '--set changes a value the event already has; to add one, add it to the file.',
      '{0}h {1}m',
      '{0}.{1}: not a name with a JSON type',
      'A name for the fixture: saved as {0}/NAME{1}',
    ])
      assert.equal(pieceReason(whole), undefined, whole);
    for (const [piece, why] of [
      [' (alias {0})', 'starts with whitespace'],
      ['\nPublic: {0}', 'starts with whitespace'],
      ['No workflow carries it, but ', 'ends with whitespace'],
      [', duplicate', 'starts with , ; · — or –'],
      ['; not for {0}', 'starts with , ; · — or –'],
      ['· tunnel {0}', 'starts with , ; · — or –'],
      ['— the built-in sandbox', 'starts with , ; · — or –'],
      ['– public {0}', 'starts with , ; · — or –'],
      ['Webhook {0}, answered {1}{2}', 'holds two adjacent placeholders'],
      ['{0}{1}', 'holds two adjacent placeholders'],
      ['Exported {0} deliver{1} to {2}', 'glues a placeholder to the end of a word'],
      ['{0} failed{1}: {2}', 'glues a placeholder to the end of a word'],
    ])
      assert.equal(pieceReason(piece!), why, piece);
  });

  it('property: a message of words and separate placeholders passes; glued with a piece, it fails', () => {
    const word = fc.stringMatching(/^[A-Za-z][A-Za-z.:()!?'"/-]{0,11}$/);
    const placeholder = fc.nat({ max: 9 }).map((i) => `{${i}}`);
    const whole = fc.array(fc.oneof(word, placeholder), { minLength: 1, maxLength: 8 }).map((ws) => ws.join(' '));
    const space = fc.constantFrom(' ', '\n', '\t', '\u00a0');
    fc.assert(
      fc.property(whole, space, fc.constantFrom(',', ';', '·', '—', '–'), placeholder, (m, s, mark, p) => {
        assert.equal(pieceReason(m), undefined, m);
        assert.ok(pieceReason(s + m), `leading ${JSON.stringify(s)}`);
        assert.ok(pieceReason(m + s), `trailing ${JSON.stringify(s)}`);
        assert.ok(pieceReason(`${mark} ${m}`), `leading ${mark}`);
        if (m.endsWith('}')) assert.ok(pieceReason(m + p), 'a placeholder glued to the last');
        if (/\p{Ll}$/u.test(m)) assert.ok(pieceReason(m + p), 'a placeholder glued to the last word');
        assert.ok(pieceReason(`${m} ${p}${p}`), 'adjacent placeholders');
      }),
      { numRuns: 200, seed: 1 },
    );
  });
});

// One exit table: every code the CLI ends with is named in src/cli/exitCodes.ts, with its meaning; no command writes
// a number, and docs/cli.md's exit-code table is the code's, row for row.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { commandHelp, type CommandSpec } from '../../../src/cli/commandSpec';
import { COMMANDS } from '../../../src/cli/commandList';
import { EXIT, EXIT_TABLE, exitCodeMarkdown, exitCodeRows } from '../../../src/cli/exitCodes';

const ROOT = resolve(__dirname, '../../../..');

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** A number written where an exit code goes: returned (`return 1`, `return ok ? 0 : 1`), listed in a command's
 * `exits` (or an EXITS constant), or handed to process.exit / exitCode / exitAfterFlush. */
export function literalExitCodes(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (n: ts.Node) => `${file}:${source.getLineAndCharacterOfPosition(n.getStart()).line + 1}: ${n.getText()}`;
  const numbersIn = (n: ts.Node | undefined): ts.Node[] => {
    if (!n) return [];
    if (ts.isNumericLiteral(n)) return [n];
    if (ts.isParenthesizedExpression(n)) return numbersIn(n.expression);
    if (ts.isConditionalExpression(n)) return [...numbersIn(n.whenTrue), ...numbersIn(n.whenFalse)];
    return [];
  };
  const allNumbers = (n: ts.Node): ts.Node[] =>
    ts.isNumericLiteral(n) ? [n] : n.getChildren().flatMap((c) => allNumbers(c));
  const visit = (n: ts.Node): void => {
    if (ts.isReturnStatement(n)) for (const lit of numbersIn(n.expression)) found.push(at(lit));
    if (ts.isPropertyAssignment(n) && n.name.getText() === 'exits')
      for (const l of allNumbers(n.initializer)) found.push(at(l));
    if (ts.isVariableDeclaration(n) && /EXITS$/.test(n.name.getText()) && n.initializer)
      for (const l of allNumbers(n.initializer)) found.push(at(l));
    if (ts.isCallExpression(n) && /(^|\.)(exit|exitAfterFlush)$/.test(n.expression.getText()))
      for (const a of n.arguments) for (const lit of numbersIn(a)) found.push(at(lit));
    if (ts.isBinaryExpression(n) && /exitCode$/.test(n.left.getText()))
      for (const l of numbersIn(n.right)) found.push(at(l));
    ts.forEachChild(n, visit);
  };
  visit(source);
  return found;
}

describe('one exit table (src/cli/exitCodes.ts)', () => {
  it('no exit code in src/cli is a number: each is EXIT.<name>', () => {
    const dir = join(ROOT, 'src/cli');
    const found = tsFiles(dir)
      .filter((f) => !f.endsWith('exitCodes.ts'))
      .flatMap((f) => literalExitCodes(relative(ROOT, f), readFileSync(f, 'utf8')));
    assert.deepEqual(found, []);
  });

  it('the check finds a number returned, listed in exits, or handed to process.exit', () => {
    const text = [
      'async function run() { if (a) return 1; return ok ? EXIT.ok : 2; }',
      "const spec = { exits: [[7, 'x']] };",
      "const EXITS = [[EXIT.failed, 'y'], [3, 'z']];",
      'process.exit(4); process.exitCode = 5;',
      'function fine() { return EXIT.ok; }',
    ].join('\n');
    assert.deepEqual(
      literalExitCodes('x.ts', text).map((s) => s.split(': ')[1]),
      ['1', '2', '7', '3', '4', '5'],
    );
  });

  it('each code has one name and one meaning; EXIT holds exactly the table', () => {
    const codes = exitCodeRows().map((r) => r.code);
    assert.equal(new Set(codes).size, codes.length, 'a code named twice');
    for (const [name, entry] of Object.entries(EXIT_TABLE)) {
      assert.equal(EXIT[name as keyof typeof EXIT], entry.code);
      assert.ok(entry.meaning.trim(), `${name} has a meaning`);
    }
    assert.deepEqual(Object.keys(EXIT).sort(), Object.keys(EXIT_TABLE).sort());
  });

  it("docs/cli.md's exit-code table is the table", () => {
    const doc = readFileSync(join(ROOT, 'docs/cli.md'), 'utf8');
    const start = doc.indexOf('| exit code | meaning |');
    assert.ok(start >= 0, 'docs/cli.md has the exit-code table');
    const rows = doc.slice(start).split('\n');
    const table = rows
      .slice(
        0,
        rows.findIndex((l) => !l.startsWith('|')),
      )
      .join('\n');
    assert.equal(table, exitCodeMarkdown(), 'regenerate the table from exitCodeMarkdown() in src/cli/exitCodes.ts');
  });

  it("every --help lists the common codes with the table's meaning, and each code it names is in the table", async () => {
    const known = new Set(exitCodeRows().map((r) => r.code));
    const specs: CommandSpec[] = await Promise.all(COMMANDS.map((c) => c.load()));
    for (const spec of specs) {
      const help = commandHelp(spec);
      const section = help.slice(help.indexOf('exit codes:'));
      const own = new Map(spec.exits ?? []);
      for (const r of exitCodeRows().filter((x) => x.common && !own.has(x.code)))
        assert.match(
          section,
          new RegExp(`\\n  ${r.code} +${r.meaning.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
          spec.name,
        );
      for (const code of own.keys())
        assert.ok(known.has(code), `wfs ${spec.name} names exit ${code}, not in the table`);
    }
  });
});

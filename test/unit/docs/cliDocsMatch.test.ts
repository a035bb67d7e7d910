// The CLI's documents say what the code does, so they cannot drift again: each command's usage block in docs/cli.md
// names every flag the command takes, every flag a documented `wfs` line uses exists, the workflow topics named in
// the documents are the ones the sandbox sends, and receiver.md's audit table names the cases the audit runs.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { COMMANDS } from '../../../src/cli/commandList';
import type { CommandSpec } from '../../../src/cli/commandSpec';
import { AUDIT_CASES } from '../../../src/core/audit/auditCases';
import { SANDBOX_EVENT_NAMES } from '../../../src/core/sandbox/sandboxWorkflows';

const ROOT = resolve(__dirname, '../../../..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
/** Flags every command takes, and listen's --no-tunnel (the default, kept for old scripts). */
const COMMON = new Set(['help', 'json', 'human']);
const UNLISTED = new Set(['help', 'no-tunnel']);

/** The `wfs …` command lines of the fenced blocks, each with its continuation lines (indented, or after a `\`). */
function wfsLines(markdown: string): string[] {
  const lines: string[] = [];
  for (const block of markdown.match(/^```[^\n]*\n[\s\S]*?^```/gm) ?? []) {
    let current: string | undefined;
    for (const line of block.split('\n').slice(1, -1)) {
      if (current !== undefined && (/^\s+\S/.test(line) || current.endsWith('\\'))) {
        current += ' ' + line.trim();
        continue;
      }
      if (current !== undefined) lines.push(current);
      const at = line.search(/(^|[\s|&;(])wfs [a-z]/);
      current = at < 0 ? undefined : line.slice(line.indexOf('wfs ', at));
    }
    if (current !== undefined) lines.push(current);
  }
  return lines;
}

/** The command a `wfs …` line runs: the longest name that starts it. */
function commandOf(line: string, names: string[]): string | undefined {
  return names.filter((n) => line === `wfs ${n}` || line.startsWith(`wfs ${n} `)).sort((a, b) => b.length - a.length)[0];
}

const flagsOf = (text: string) => new Set([...text.matchAll(/(?<![\w-])--([a-z][a-z0-9-]*)/g)].map((m) => m[1]!));

describe('docs/cli.md and docs/receiver.md follow the code', () => {
  let specs: Map<string, CommandSpec>;
  before(async () => {
    specs = new Map(await Promise.all(COMMANDS.map(async (c) => [c.name, await c.load()] as const)));
  });

  it('each command has a usage block in docs/cli.md naming every flag it takes', () => {
    const lines = wfsLines(read('docs/cli.md'));
    const names = [...specs.keys()];
    const missing: string[] = [];
    for (const [name, spec] of specs) {
      const wanted = Object.keys(spec.flags).filter((f) => !UNLISTED.has(f));
      // The usage block: the documented line of that command that names the most of its flags.
      const best = lines
        .filter((l) => commandOf(l, names) === name)
        .map((l) => wanted.filter((f) => !flagsOf(l).has(f)))
        .sort((a, b) => a.length - b.length)[0];
      if (best === undefined) missing.push(`wfs ${name}: no usage block`);
      else if (best.length) missing.push(`wfs ${name}: the usage block leaves out --${best.join(', --')}`);
    }
    assert.deepEqual(missing, []);
  });

  it('every flag a documented wfs line uses is a flag of that command', () => {
    const names = [...specs.keys()];
    const unknown: string[] = [];
    for (const file of ['docs/cli.md', 'docs/receiver.md', 'docs/testkit.md', 'docs/agents.md', 'README.md'])
      for (const line of wfsLines(read(file))) {
        const name = commandOf(line, names);
        if (!name) continue;
        // Only this command's own words: in an example (not a usage block, which has `[`, `(` and `|` of its own),
        // a pipe, `&&`, `;`, a comment or the `)` closing `$(wfs …)` ends them.
        const usage = /\s[[(]--|…/.test(line);
        const own = usage ? line : line.split(/\s(?:\||&&|;|#)\s|\)/)[0]!;
        for (const f of flagsOf(own))
          if (!COMMON.has(f) && !(f in specs.get(name)!.flags)) unknown.push(`${file}: wfs ${name} --${f}`);
      }
    assert.deepEqual(unknown, []);
  });

  it('the workflow topics the documents name are the ones the sandbox sends', () => {
    const sent = new Set(SANDBOX_EVENT_NAMES.map((n) => `workflow/${n}`));
    const named: string[] = [];
    for (const file of ['README.md', 'docs/cli.md', 'docs/receiver.md', 'docs/testkit.md', 'docs/agents.md'])
      for (const m of read(file).matchAll(/`(workflow\/[a-z]+)`/g)) if (!sent.has(m[1]!)) named.push(`${file}: ${m[1]}`);
    assert.deepEqual(named, []);
  });

  it("receiver.md's audit table names each exp case as the audit runs it, and counts the cases", () => {
    const doc = read('docs/receiver.md');
    const runs = AUDIT_CASES.map((c) => /^exp-(\d+)s-past$/.exec(c.id)?.[1])
      .filter((s): s is string => s !== undefined)
      .sort();
    const said = [...doc.matchAll(/`exp` (\d+) s past/g)].map((m) => m[1]!).sort();
    assert.deepEqual([...new Set(said)], runs);
    const counted = /signs (\d+) deliveries/.exec(doc)?.[1];
    assert.equal(Number(counted), AUDIT_CASES.length);
  });
});

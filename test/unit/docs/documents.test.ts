// The documents stay written for their readers: README short enough to scan, sentences a reader can hold, links
// that resolve, and tables that render (a row cut off from its table by a blank line shows as plain text).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../../..');
const README_MAX_BYTES = 15 * 1024;
const MAX_SENTENCE_WORDS = 40;
const MAX_PARAGRAPH_WORDS = 80;

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const markdownFiles = () => ['README.md', 'CHANGELOG.md', 'CONTRIBUTING.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** The prose of a Markdown text: no fenced code, no inline code or link targets; each table cell and list item on
 * its own, so a table row is not read as one sentence. */
function proseUnits(markdown: string): string[] {
  const withoutFences = markdown.replace(/^```[\s\S]*?^```/gm, '');
  const units: string[] = [];
  for (const line of withoutFences.split('\n')) {
    const text = line.replace(/`[^`]*`/g, 'code').replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1');
    // Each cell on its own: an empty unit after it ends its paragraph.
    if (/^\s*\|/.test(text)) for (const cell of text.split('|')) units.push(cell, '');
    else units.push(text);
  }
  return units;
}

/** Sentences over the limit, with their word count. Sentences end at . ! ? or : followed by a space or the end;
 * a paragraph's lines are joined first. */
export function longSentences(markdown: string, max = MAX_SENTENCE_WORDS): string[] {
  const paragraphs: string[] = [];
  let current: string[] = [];
  for (const unit of proseUnits(markdown)) {
    const isBreak = unit.trim() === '' || /^\s*(#|[-*] |\d+\. )/.test(unit);
    if (isBreak && current.length) {
      paragraphs.push(current.join(' '));
      current = [];
    }
    if (unit.trim()) current.push(unit.replace(/^\s*(#+|[-*]|\d+\.)\s*/, ''));
  }
  if (current.length) paragraphs.push(current.join(' '));
  const over: string[] = [];
  for (const p of paragraphs)
    for (const sentence of p.split(/(?<=[.!?:;])\s+/)) {
      const words = sentence.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
      if (words > max) over.push(`${words} words: ${sentence.slice(0, 120)}…`);
    }
  return over;
}

/** Paragraphs over the limit, with their word count. A paragraph is a run of lines up to a blank line, a heading, a
 * table row or a list item; fenced code and tables are not prose, and each list item is a paragraph of its own. A word
 * is any whitespace-separated token holding a letter, digit or underscore, inline code included. */
export function longParagraphs(markdown: string, max = MAX_PARAGRAPH_WORDS): string[] {
  const paragraphs: string[] = [];
  let current: string[] = [];
  const end = () => {
    if (current.length) paragraphs.push(current.join(' '));
    current = [];
  };
  for (const line of markdown.replace(/^```[\s\S]*?^```/gm, '').split('\n')) {
    const listItem = /^\s*([-*]|\d+\.) /.test(line);
    if (line.trim() === '' || line.startsWith('#') || line.startsWith('|') || listItem) {
      end();
      if (listItem) current.push(line);
    } else current.push(line);
  }
  end();
  return paragraphs.flatMap((p) => {
    const words = p.split(/\s+/).filter((w) => /\w/.test(w)).length;
    return words > max ? [`${words} words: ${p.slice(0, 90)}…`] : [];
  });
}

/** Relative links (not http, mailto or an in-page anchor) whose file does not exist. */
export function brokenLinks(file: string, markdown: string): string[] {
  const out: string[] = [];
  for (const m of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)) {
    const target = m[1]!;
    if (/^[a-z]+:/i.test(target) || target.startsWith('#')) continue;
    const path = resolve(ROOT, dirname(file), decodeURIComponent(target.split('#')[0]!));
    if (!existsSync(path)) out.push(`${file}: ${target}`);
  }
  return out;
}

/** Table rows that follow a blank line without being a table's header (the next line a |---| separator). */
export function orphanTableRows(markdown: string): string[] {
  const lines = markdown.replace(/^```[\s\S]*?^```/gm, '').split('\n');
  const out: string[] = [];
  for (let i = 1; i < lines.length; i++) {
    if (!lines[i]!.startsWith('|') || lines[i - 1]!.trim() !== '') continue;
    if (!/^\|\s*:?-{3,}/.test(lines[i + 1] ?? '')) out.push(`line ${i + 1}: ${lines[i]!.slice(0, 80)}`);
  }
  return out;
}

describe('documents, for their readers', () => {
  it(`README is at most ${README_MAX_BYTES / 1024} KB`, () => {
    const bytes = Buffer.byteLength(read('README.md'));
    assert.ok(bytes <= README_MAX_BYTES, `README.md is ${bytes} bytes`);
  });

  it('docs/benchmarks.md is at most 25 KB: the results and how each is measured; how a figure was reached is in git', () => {
    const bytes = Buffer.byteLength(read('docs/benchmarks.md'));
    assert.ok(bytes <= 25 * 1024, `docs/benchmarks.md is ${bytes} bytes`);
  });

  for (const file of ['README.md', 'CHANGELOG.md'])
    it(`${file} has no sentence over ${MAX_SENTENCE_WORDS} words`, () => {
      assert.deepEqual(longSentences(read(file)), []);
    });

  it(`docs/cli.md: no paragraph over ${MAX_PARAGRAPH_WORDS} words`, () => {
    assert.deepEqual(longParagraphs(read('docs/cli.md')), []);
  });

  it('every relative link in README, CHANGELOG, CONTRIBUTING and docs/ resolves', () => {
    assert.deepEqual(markdownFiles().flatMap((f) => brokenLinks(f, read(f))), []);
  });

  it('no table row in README or docs/ is cut off from its table', () => {
    assert.deepEqual(['README.md', ...markdownFiles().filter((f) => f.startsWith('docs/'))].flatMap((f) => orphanTableRows(read(f)).map((r) => `${f} ${r}`)), []);
  });

  it('the checks catch what they are for', () => {
    assert.equal(longSentences(`${'word '.repeat(41)}end.`).length, 1);
    assert.equal(longSentences(`${'word '.repeat(30)}end. ${'word '.repeat(30)}end.`).length, 0);
    assert.equal(longSentences('| a | b |\n|---|---|\n| ' + 'x '.repeat(30) + '| ' + 'y '.repeat(30) + '|').length, 0, 'cells are read apart');
    assert.equal(longParagraphs(`${'word '.repeat(81)}`).length, 1);
    assert.equal(longParagraphs(`${'word '.repeat(50)}\n\n${'word '.repeat(50)}`).length, 0, 'a blank line ends a paragraph');
    assert.equal(longParagraphs(`${'word '.repeat(50)}\n- ${'word '.repeat(50)}`).length, 0, 'a list item is its own paragraph');
    assert.equal(longParagraphs('```\n' + 'word '.repeat(90) + '\n```\n| ' + 'x '.repeat(90) + '|').length, 0, 'code and tables are not prose');
    assert.deepEqual(brokenLinks('README.md', '[a](docs/nothing-here.md) [b](https://example.com) [c](#top)'), ['README.md: docs/nothing-here.md']);
    assert.equal(orphanTableRows('| a | b |\n|---|---|\n| 1 | 2 |\n\n| 3 | 4 |\n').length, 1);
    assert.equal(orphanTableRows('text\n\n| a | b |\n|---|---|\n').length, 0);
  });
});

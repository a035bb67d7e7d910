import assert from 'node:assert/strict';
import { chooseFace } from '../../../src/cli/output';
import { renderHuman } from '../../../src/cli/render/humanText';
import { colourEnabled, makeStyle } from '../../../src/cli/render/style';

describe('the human face', () => {
  it('face: --json wins, then --human, then the terminal decides', () => {
    assert.equal(chooseFace(['start'], true), 'human');
    assert.equal(chooseFace(['start'], false), 'json');
    assert.equal(chooseFace(['start', '--json'], true), 'json');
    assert.equal(chooseFace(['start', '--human'], false), 'human');
    assert.equal(chooseFace(['--human', 'start', '--json'], true), 'json');
  });

  it('colour: NO_COLOR (non-empty) turns it off, FORCE_COLOR on (but not FORCE_COLOR=0), else only on a terminal that is not dumb', () => {
    assert.equal(colourEnabled({}, true), true);
    assert.equal(colourEnabled({}, false), false);
    assert.equal(colourEnabled({ NO_COLOR: '1' }, true), false);
    assert.equal(colourEnabled({ NO_COLOR: '' }, true), true);
    assert.equal(colourEnabled({ FORCE_COLOR: '1' }, false), true);
    assert.equal(colourEnabled({ FORCE_COLOR: '0' }, true), false);
    assert.equal(colourEnabled({ NO_COLOR: '1', FORCE_COLOR: '1' }, true), false);
    assert.equal(colourEnabled({ TERM: 'dumb' }, true), false);
  });

  const s = makeStyle(false);

  it('an error keeps its correlationId on a line of its own, and goes to stderr', () => {
    const r = renderHuman(
      {
        event: 'error',
        kind: 'outcome-unknown',
        correlationId: 'c-1',
        message: 'Outcome unknown: run `wfs find --correlation-id c-1`',
      },
      s,
    );
    assert.equal(r.stream, 'stderr');
    assert.equal(r.text, '✗ Outcome unknown: run `wfs find --correlation-id c-1`\n  correlationId  c-1\n');
  });

  it('an event without a renderer of its own is shown by name with its fields, never lost', () => {
    const r = renderHuman(
      { event: 'mystery', state: 'open', publicUrl: 'https://x.example', extra: { a: 1 }, none: null },
      s,
    );
    assert.equal(r.stream, 'stdout');
    assert.equal(r.text, 'mystery  state=open  publicUrl=https://x.example  extra={"a":1}\n');
  });

  it('a status line: time, status padded, id and run', () => {
    const r = renderHuman(
      {
        event: 'status',
        at: '2026-01-15T12:00:05.000Z',
        workflow: { workflowId: 'wf_1', runId: 'r1', status: 'processing' },
      },
      s,
    );
    assert.equal(r.text, '12:00:05  processing  wf_1  run r1\n');
  });

  it('every renderer gets outside text escaped: an audit case, a service error, a fixture answer, an unknown event', () => {
    const colour = makeStyle(true);
    const lines = [
      { event: 'case', id: 'x', title: 'T', passed: false, detail: 'answered \x1b]52;c;AAAA\x07', fix: 'f\u202e' },
      { event: 'error', kind: 'service', message: 'the service said \x9b31m\u2028boom' },
      {
        event: 'fixture-sent',
        index: 1,
        total: 1,
        file: 'a\rb.webhook.json',
        passed: true,
        status: 200,
        latencyMs: 1,
        answer: '\u2066ok',
      },
      { event: 'something-new', note: '\x1b[2J', nested: { k: '\u200f' } },
    ];
    for (const line of lines) {
      // Only the style's own SGR sequences reach the terminal raw.
      const text = renderHuman(line, colour).text.replace(/\x1b\[[0-9;]*m/g, '');
      assert.doesNotMatch(
        text,
        /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/,
      );
    }
    assert.match(renderHuman(lines[0]!, makeStyle(false)).text, /answered \\x1b\]52;c;AAAA\\x07\n {4}fix: f\\u202e/);
  });
});

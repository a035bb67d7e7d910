// The receiver task's lines against the problem matcher package.json contributes: the ready line ends the first
// background cycle (a preLaunchTask waits for it), each forwarded delivery is one cycle, a failed target a problem.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DeliveryRecord } from '../../../src/core/webhooks/deliveryRecord';
import { deliveryLines, TASK_STARTING, taskReady, terminalLine } from '../../../src/extension/tasks/receiverTaskLines';

const manifest = JSON.parse(readFileSync(join(__dirname, '../../../../package.json'), 'utf8'));
const matcher = manifest.contributes.problemMatchers.find((m: { name: string }) => m.name === 'wfs-receiver');
const begins = new RegExp(matcher.background.beginsPattern.regexp);
const ends = new RegExp(matcher.background.endsPattern);
const problem = new RegExp(matcher.pattern.regexp);

const record = (over: Partial<DeliveryRecord>): DeliveryRecord => ({
  id: 'd-1',
  receivedAt: '2026-11-26T09:00:01.000Z',
  method: 'POST',
  path: '/webhooks',
  headers: {},
  body: { size: 2, sha256: '', kept: 2, utf8: true },
  checks: [],
  verified: true,
  status: 200,
  durationMs: 1,
  duplicate: false,
  topic: 'payments/settled',
  ...over,
});

describe('the receiver task lines and its problem matcher', () => {
  it('starting begins, ready ends: what a preLaunchTask waits for', () => {
    assert.match(TASK_STARTING, begins);
    assert.match(taskReady('http://127.0.0.1:1/webhooks'), ends);
  });

  it('a forwarded delivery is one cycle filed under its signed topic; only a failed target is a problem', () => {
    const lines = deliveryLines(
      record({
        forwards: [
          { target: 'http://127.0.0.1:3000/', rules: [], status: 500, latencyMs: 4, body: 'boom', bodySize: 4 },
          { target: 'http://127.0.0.1:3001/', rules: [], status: 200, latencyMs: 2 },
        ],
      }),
    );
    assert.equal(begins.exec(lines[0]!)?.[matcher.background.beginsPattern.file], 'webhook/payments/settled');
    const problems = lines.map((l) => problem.exec(l)).filter(Boolean);
    assert.deepEqual(
      problems.map((m) => [m![matcher.pattern.file], m![matcher.pattern.message]]),
      [['webhook/payments/settled', 'forward failed: http://127.0.0.1:3000/ → 500 in 4 ms (4 B): "boom"']],
    );
    assert.match(lines.at(-1)!, ends);
    assert.equal(lines.filter((l) => begins.test(l) || ends.test(l)).length, 2, 'no other line opens or closes');
  });

  it('a delivery without forwards is plain lines, outside any cycle', () => {
    const lines = deliveryLines(record({ topic: undefined, unsigned: { topic: 'x/y' } }));
    assert.deepEqual(lines, ['09:00:01  200 verified  x/y (unsigned)']);
  });

  it("a stranger's controls reach the task's terminal as visible escapes; line feeds become CR LF", () => {
    const [line] = deliveryLines(record({ topic: 'orders\x1b[2J/new\u202e' }));
    assert.equal(terminalLine(line!), '09:00:01  200 verified  orders\\x1b[2J/new\\u202e\r\n');
    assert.equal(terminalLine('one\ntwo\r'), 'one\r\ntwo\\x0d\r\n');
  });
});

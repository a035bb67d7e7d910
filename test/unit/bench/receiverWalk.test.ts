// The walk of one verified delivery through the receiver (bench/receiverWalk.mjs): #52 asked that it stay in fewer
// files, with fewer returns, than before the receiver had its two doors (032621d: 87 stops, 32 returns, 12 files).
// The figures below are today's; a change that adds a hop fails here and says where the walk now goes.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';

interface Walk {
  stops: number;
  returns: number;
  files: number;
  walk: string[];
}

describe('bench/receiverWalk.mjs: one delivery through the receiver', function () {
  this.timeout(120_000);
  let walk: Walk;
  before(() => {
    const out = execFileSync(process.execPath, ['bench/receiverWalk.mjs'], { encoding: 'utf8', timeout: 110_000 });
    walk = (JSON.parse(out) as Walk[])[0]!;
  });

  it('starts at the request handler and ends with the answer written', () => {
    assert.match(walk.walk[0]!, /^core\/webhooks\/Receiver\.ts /);
    assert.equal(walk.walk.at(-1), 'core/webhooks/Receiver.ts writeAnswer');
    assert.ok(walk.walk.includes('core/webhooks/Verifier.ts headers'));
    assert.ok(walk.walk.includes('core/webhooks/Verifier.ts body'));
    assert.ok(walk.walk.includes('core/webhooks/DeliveryHistory.ts add'), 'the record is kept before the answer');
  });

  it('stays in 11 files, with at most 24 returns and 68 stops', () => {
    const where = `\n${walk.walk.join('\n')}`;
    assert.ok(walk.files <= 11, `${walk.files} files:${where}`);
    assert.ok(walk.returns <= 24, `${walk.returns} returns:${where}`);
    assert.ok(walk.stops <= 68, `${walk.stops} stops:${where}`);
  });
});

// The registration watch (core/receiver/registrationWatch.ts) on a virtual clock: a sandbox that goes away and comes
// back without this receiver gets it registered again; each change is told once; the schedule is bounded.
import assert from 'node:assert/strict';
import { RegistrationWatch } from '../../../src/core/receiver/registrationWatch';
import { ManualClock } from '../helpers/manualClock';

class Unreachable extends Error {}

function fakeSandbox() {
  const state = { up: true, refuse: false, list: ['http://127.0.0.1:9/webhooks'], asked: 0 };
  return {
    state,
    registered: async () => {
      state.asked++;
      if (!state.up) throw new Unreachable('ECONNREFUSED');
      if (state.refuse) throw new Error('403 Sandbox secret wrong');
      return [...state.list];
    },
    register: async (url: string) => void state.list.push(url),
  };
}

describe('RegistrationWatch', () => {
  it('lost once, back without us: registered again once; asked every 5 s while up, backing off while down', async () => {
    const clock = new ManualClock();
    const s = fakeSandbox();
    const url = 'http://127.0.0.1:9/webhooks';
    const said: string[] = [];
    const watch = new RegistrationWatch({
      clock,
      url,
      name: 'the sandbox',
      registered: s.registered,
      register: s.register,
      isUnreachable: (e) => e instanceof Unreachable,
    });
    for (const e of ['lost', 'registered', 'refused'] as const) watch.on(e, () => said.push(e));
    watch.start();
    await clock.advanceAsync(20_000);
    assert.equal(s.state.asked, 4, 'every 5 s while it answers');
    assert.deepEqual(said, []);

    s.state.up = false;
    s.state.list = [];
    await clock.advanceAsync(5_000);
    await clock.advanceAsync(7_000); // 1 s, 2 s, 4 s after the first failure
    assert.equal(s.state.asked, 8);
    assert.deepEqual(said, ['lost'], 'said once');

    s.state.up = true;
    await clock.advanceAsync(5_000);
    assert.deepEqual(said, ['lost', 'registered']);
    assert.deepEqual(s.state.list, [url]);
    await clock.advanceAsync(30_000);
    assert.deepEqual(said, ['lost', 'registered'], 'present again: nothing more to say');

    s.state.refuse = true;
    await clock.advanceAsync(10_000);
    assert.deepEqual(said, ['lost', 'registered', 'refused']);
    watch.stop();
    const asked = s.state.asked;
    await clock.advanceAsync(60_000);
    assert.equal(s.state.asked, asked, 'stopped: never asked again');
  });
});

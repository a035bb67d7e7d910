// The extension's Disposable base: what a class registers is released once, newest first, and never twice.
import assert from 'node:assert/strict';
import { Disposable } from '../../../src/extension/disposable';

class Holder extends Disposable {
  hold(name: string, released: string[]): void {
    this.register({ dispose: () => void released.push(name) });
  }
  holdAll(names: string[], released: string[]): void {
    this.registerAll(...names.map((n) => ({ dispose: () => void released.push(n) })));
  }
  get done(): boolean {
    return this.isDisposed;
  }
}

describe('Disposable (extension base)', () => {
  it('releases what was registered in reverse order, once, however often dispose() is called', () => {
    const released: string[] = [];
    const h = new Holder();
    h.hold('emitter', released);
    h.holdAll(['subscription', 'item'], released);
    assert.equal(h.done, false);
    h.dispose();
    assert.deepEqual(released, ['item', 'subscription', 'emitter']);
    h.dispose();
    assert.deepEqual(released, ['item', 'subscription', 'emitter']);
    assert.equal(h.done, true);
  });

  it('releases at once what is registered after dispose(), so nothing outlives its holder', () => {
    const released: string[] = [];
    const h = new Holder();
    h.dispose();
    h.hold('late', released);
    assert.deepEqual(released, ['late']);
    h.dispose();
    assert.deepEqual(released, ['late']);
  });

  it('returns what it registers, so a field can be made and held in one line', () => {
    class WithField extends Disposable {
      readonly item = this.register({ dispose: () => undefined, name: 'x' });
    }
    assert.equal(new WithField().item.name, 'x');
  });
});

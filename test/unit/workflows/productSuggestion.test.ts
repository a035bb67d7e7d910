// The nearest products to a mistyped one (issue 69, point 9).
import assert from 'node:assert/strict';
import { productRefusalAdvice, suggestProducts } from '../../../src/core/workflows/productSuggestion';
import { SANDBOX_PRODUCTS } from '../../../src/core/sandbox/sandboxSeed';

const KNOWN = SANDBOX_PRODUCTS.map(({ service, model }) => ({ service, model }));
const names = (asked: [string, string]) =>
  suggestProducts({ service: asked[0], model: asked[1] }, KNOWN).map((p) => `${p.service} ${p.model}`);

describe('suggestProducts', () => {
  it('a typo in the service, the model or both; letter case; the two swapped', () => {
    assert.deepEqual(names(['Apraisal', 'Standard']), ['Appraisal Standard']);
    assert.equal(names(['Appraisal', 'Standrd'])[0], 'Appraisal Standard');
    assert.equal(names(['Apraisal', 'Dekstop'])[0], 'Appraisal Desktop');
    assert.deepEqual(names(['flood', 'certifcation']), ['Flood Certification']);
    assert.equal(names(['Standard', 'Appraisal'])[0], 'Appraisal Standard');
  });

  it('nothing near: no suggestion', () => {
    assert.deepEqual(names(['Zzz', 'Yyy']), []);
    assert.deepEqual(names(['Flood', 'Desktopper']), []);
  });

  it('the advice: the suggestion as the caller writes it, and every product known; without a list, what to check', () => {
    const a = productRefusalAdvice(
      { service: 'Apraisal', model: 'Standard' },
      { products: KNOWN, from: 'X' },
      (p) => `--service ${p.service} --model ${p.model}`,
    );
    assert.match(a, /Did you mean --service Appraisal --model Standard\? \(X knows: Appraisal Standard, /);
    assert.match(productRefusalAdvice({ service: 'a', model: 'b' }, undefined), /Check the spelling/);
  });
});

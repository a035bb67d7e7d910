import assert from 'node:assert/strict';
import { edgeViolation } from '../../../src/core/http/edgeFilter';

describe('edgeFilter', () => {
  for (const v of [
    "x' OR '1'='1",
    '1 UNION SELECT password FROM users',
    'a; DROP TABLE loans',
    "abc'--",
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    'javascript:alert(1)',
  ])
    it(`flags ${JSON.stringify(v)}`, () => assert.ok(edgeViolation(v)));
  for (const v of [
    'order-2026-01-15-abc',
    'Appraisal',
    "O'Brien",
    'one=1; two=2',
    'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln--_x',
  ])
    it(`lets ${JSON.stringify(v)} through`, () => assert.equal(edgeViolation(v), undefined));
  it('Base64-encoding makes a refused value pass', () => {
    assert.equal(edgeViolation(Buffer.from('<script>', 'utf8').toString('base64')), undefined);
  });
});

import assert from 'node:assert/strict';
import { buildTestWebhookRequest, testWebhookIds } from '../../../src/core/webhooks/testWebhookRequest';
import { LocalValidationError } from '../../../src/core/http/serviceErrors';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0, 123);
const base = {
  address: 'https://abc.loca.lt/webhooks',
  topic: 'workflow/completed',
  subTopic: 'status:workflow/completed',
  tenantId: 'tenant-1',
};

describe('buildTestWebhookRequest', () => {
  it('sets the five X-Svc-* headers: a UUID webhook id and triggeredAt now with 7 fractional digits', () => {
    const r = buildTestWebhookRequest({ ...base, testData: { a: 1 } }, NOW, false);
    assert.deepEqual(Object.keys(r.headers).sort(), [
      'x-svc-sub-topic',
      'x-svc-tenant-id',
      'x-svc-topic',
      'x-svc-triggered-at',
      'x-svc-webhook-id',
    ]);
    assert.match(
      r.headers['x-svc-webhook-id'],
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    assert.equal(r.headers['x-svc-triggered-at'], '2026-01-15T12:00:00.1230000Z');
    assert.deepEqual(r.json, { address: base.address, testData: { a: 1 } });
  });
  it('uses the given webhook id and refuses one that is not a UUID', () => {
    const id = '3f1c2a8e-0b4e-4c39-9d3a-1f2e3d4c5b6a';
    assert.equal(buildTestWebhookRequest({ ...base, webhookId: id }, NOW, false).headers['x-svc-webhook-id'], id);
    assert.throws(
      () => buildTestWebhookRequest({ ...base, webhookId: 'abc' }, NOW, false),
      (e: unknown) => e instanceof LocalValidationError && e.rule === 'webhook-id-not-uuid',
    );
  });
  it('refuses a non-https address with a clear error, except loopback http for the sandbox', () => {
    assert.throws(
      () => buildTestWebhookRequest({ ...base, address: 'http://example.com/x' }, NOW, false),
      (e: unknown) => e instanceof LocalValidationError && e.rule === 'address-not-https',
    );
    assert.throws(() => buildTestWebhookRequest({ ...base, address: 'http://127.0.0.1:3000/x' }, NOW, false), /tunnel/);
    assert.doesNotThrow(() => buildTestWebhookRequest({ ...base, address: 'http://127.0.0.1:3000/x' }, NOW, true));
    assert.throws(
      () => buildTestWebhookRequest({ ...base, address: 'http://example.com/x' }, NOW, true),
      LocalValidationError,
    );
    assert.throws(
      () => buildTestWebhookRequest({ ...base, address: 'not a url' }, NOW, true),
      (e: unknown) => (e as LocalValidationError).rule === 'address-invalid',
    );
  });
  it('refuses missing or edge-refused header values', () => {
    assert.throws(
      () => buildTestWebhookRequest({ ...base, topic: '' }, NOW, false),
      (e: unknown) => (e as LocalValidationError).rule === 'header-required',
    );
    assert.throws(
      () => buildTestWebhookRequest({ ...base, tenantId: '<script>' }, NOW, false),
      (e: unknown) => (e as LocalValidationError).rule === 'edge-refused-value',
    );
  });
  it('leaves testData out when none is given', () => {
    assert.deepEqual(buildTestWebhookRequest(base, NOW, false).json, { address: base.address });
  });
});

describe('test webhook ids (#79, item 6)', () => {
  const base = { address: 'https://hooks.example/x', topic: 'a/b', subTopic: 'k:a/b', tenantId: 't' };
  const BODY = '11111111-2222-4333-8444-555555555555';
  const HEADER = '99999999-2222-4333-8444-555555555555';

  it("the header carries the body's webhookId, and it is the one reported", () => {
    const r = buildTestWebhookRequest({ ...base, testData: { webhookId: BODY } }, 0, false);
    assert.equal(r.headers['x-svc-webhook-id'], BODY);
    assert.deepEqual(testWebhookIds(r), { webhookId: BODY });
  });

  it('a --webhook-id other than the body’s: both named, the body’s first', () => {
    const r = buildTestWebhookRequest({ ...base, webhookId: HEADER, testData: { webhookId: BODY } }, 0, false);
    assert.deepEqual(testWebhookIds(r), { webhookId: BODY, headerWebhookId: HEADER });
  });

  it('a body without a webhookId (or not an object): the header’s id', () => {
    for (const testData of [undefined, [1], 'x', { webhookId: 7 }]) {
      const r = buildTestWebhookRequest({ ...base, testData }, 0, false);
      assert.deepEqual(testWebhookIds(r), { webhookId: r.webhookId });
    }
  });
});

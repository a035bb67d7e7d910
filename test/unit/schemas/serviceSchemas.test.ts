// The service's JSON Schemas (src/core/schemas/json) against the sandbox's own answers, so the schemas, the types
// and what the sandbox sends cannot drift apart; and against answers the spec forbids, so each schema can fail.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { SCHEMA_NAMES, type SchemaName } from '../../../src/core/schemas/serviceTypes';
import { validateSchema, type Schema } from '../../../src/core/schemas/validateSchema';
import { startSandbox, type SandboxFixture } from '../helpers/sandboxFixture';
import { RecordingServer } from '../helpers/recordingServer';

// out/test/unit/schemas → the repository's src/core/schemas/json
const schema = (name: SchemaName): Schema =>
  JSON.parse(readFileSync(join(__dirname, '../../../../src/core/schemas/json', `${name}.schema.json`), 'utf8'));
const check = (name: SchemaName, value: unknown) =>
  assert.deepEqual(validateSchema(schema(name), value), [], `${name}: ${JSON.stringify(value)}`);
const ROOT = '/workflow-services-ws/resources/v1';

describe("the service's JSON Schemas, against the sandbox", () => {
  let f: SandboxFixture;
  let token: string;
  beforeEach(async () => {
    f = await startSandbox();
    token = (await f.signIn()).access_token;
  });
  afterEach(() => f.stop());

  it('every schema is valid JSON, names itself, and uses only the keywords the validator checks', () => {
    for (const name of SCHEMA_NAMES) {
      const s = schema(name);
      assert.match(String(s.$id), new RegExp(`/${name}\\.schema\\.json$`));
      validateSchema(s, {});
    }
  });

  it('sign-in and refresh answer token responses', async () => {
    const t = await f.signIn();
    check('token-response', t);
    const refreshed = await f.call('/user-management-services-ws/oauth2/002/refreshIdToken', {
      json: { refresh_token: t.refresh_token },
    });
    check('token-response', refreshed.json());
  });

  it('start (202), read (200), a refusal (400) and a not-found (404 problem document) fit their schemas', async () => {
    const started = await f.call(`${ROOT}/sessions/${f.info.sessions.staged}/workflows`, {
      token,
      json: { product: { service: 'Appraisal', model: 'Standard' } },
    });
    assert.equal(started.status, 202);
    check('messages-envelope', started.json());
    check('workflow', started.json().workflow);
    const read = await f.call(`${ROOT}/workflows/${started.json().workflow.workflowId}`, { token });
    check('messages-envelope', read.json());
    check('workflow', read.json().workflow);
    const refused = await f.call(`${ROOT}/sessions/${f.info.sessions.staged}/workflows`, {
      token,
      json: { product: { service: 'Appraisal', model: 'Standard' }, terms: 1 },
    });
    assert.equal(refused.status, 400);
    check('messages-envelope', refused.json());
    assert.ok(Array.isArray(refused.json().messages));
    const malformed = await f.call(`${ROOT}/sessions/${f.info.sessions.staged}/workflows`, {
      token,
      json: { product: 'nope' },
    });
    assert.equal(malformed.status, 400);
    check('problem-document', malformed.json());
    const missing = await f.call(`${ROOT}/workflows/wf_nope`, { token });
    assert.equal(missing.status, 404);
    assert.equal(missing.headers['content-type'], 'application/problem+json');
    check('problem-document', missing.json());
  });

  it('a workflow event delivered by the sandbox fits the event schema, and its token the claims schema', async () => {
    const receiver = new RecordingServer();
    const url = await receiver.start();
    try {
      assert.equal((await f.control('POST', 'webhooks', { url: `${url}/hook` })).status, 201);
      const started = (
        await f.call(`${ROOT}/sessions/${f.info.sessions.staged}/workflows`, {
          token,
          json: { product: { service: 'Appraisal', model: 'Standard' }, correlationId: 'c-1' },
        })
      ).json();
      await f.control('POST', `workflows/${started.workflow.workflowId}/finish`, { status: 'complete' });
      await receiver.waitFor(1);
      const delivery = receiver.requests[0]!;
      check('webhook-event', JSON.parse(delivery.body.toString('utf8')));
      check('webhook-jwt-claims', decodeJwt(String(delivery.headers.authorization).replace(/^Bearer /, '')));
      const finished = (await f.call(`${ROOT}/workflows/${started.workflow.workflowId}`, { token })).json();
      check('workflow', finished.workflow);
    } finally {
      await receiver.stop();
    }
  });

  it('each schema refuses what the spec forbids: null for an omitted field, messages not an array, a fifth status, 3 fractional digits', () => {
    const base = {
      workflowId: 'wf_1',
      runId: 'wfrun_1',
      status: 'processing',
      sessionId: 's',
      product: { service: 'A', model: 'B' },
      productType: 'A',
      productName: 'B',
    };
    check('workflow', base);
    assert.match(validateSchema(schema('workflow'), { ...base, correlationId: null }).join(), /correlationId: is null/);
    assert.match(validateSchema(schema('workflow'), { ...base, completed: null }).join(), /completed/);
    assert.match(validateSchema(schema('workflow'), { ...base, status: 'done' }).join(), /status/);
    assert.match(validateSchema(schema('messages-envelope'), { messages: null }).join(), /messages: is null/);
    const event = {
      webhookId: '0b9a3c52-7d1e-4c4b-9f0e-2a6c1d3e4f50',
      topic: 'workflow/completed',
      subTopic: 'status:workflow/completed',
      tenantId: 't',
      triggeredAt: '2026-01-15T12:00:00.1234567Z',
      actorId: 'a',
      data: {},
    };
    check('webhook-event', event);
    assert.match(
      validateSchema(schema('webhook-event'), { ...event, triggeredAt: '2026-01-15T12:00:00.123Z' }).join(),
      /triggeredAt/,
    );
    assert.match(validateSchema(schema('webhook-jwt-claims'), { iss: 'i', aud: 'a', exp: 1 }).join(), /body_sha256/);
    assert.match(
      validateSchema(schema('problem-document'), { type: 'about:blank', title: 't', status: 404, messages: [] }).join(),
      /not/,
    );
  });
});

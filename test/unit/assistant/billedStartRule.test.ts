// A billed start by a tool is made only after a person confirmed that very start; where none can be asked, nothing is
// started and the person gets the exact command.
import assert from 'node:assert/strict';
import {
  billedStartCommand,
  billedStartQuestion,
  decideBilledStart,
} from '../../../src/core/assistant/billedStartRule';
import { runTool } from '../../../src/core/assistant/toolRegistry';
import { assistantFixture, type AssistantFixture } from './assistantFixture';

const details = {
  environment: 'Staging',
  serviceOrigin: 'https://staging.example',
  sessionId: 'sess-1',
  product: { service: 'Appraisal', model: 'Standard' },
  correlationId: 'wfs-20260115T120000Z-abc',
};

describe('assistant: the billed-start rule', () => {
  it('only an explicit yes starts', () => {
    assert.deepEqual(decideBilledStart(true, details), { start: true });
    const no = decideBilledStart(false, details);
    assert.equal(no.start, false);
    assert.ok(!no.start && no.reason === 'declined' && no.command === undefined);
  });

  it('a client that cannot ask gets the exact wfs start command, quoted for a shell only where it must be', () => {
    const d = decideBilledStart('cannot-ask', details);
    assert.ok(!d.start && d.reason === 'cannot-ask');
    assert.equal(
      d.command,
      'wfs start --session sess-1 --service Appraisal --model Standard --correlation-id wfs-20260115T120000Z-abc',
    );
    assert.ok(d.message.includes(d.command!));
    assert.equal(
      billedStartCommand({ ...details, sessionId: "loan 7's", product: { service: 'Flood', model: 'Certification' } }),
      `wfs start --session 'loan 7'\\''s' --service Flood --model Certification --correlation-id wfs-20260115T120000Z-abc`,
    );
  });

  it('the question is fixed text, then each value labelled and quoted on its own line', () => {
    assert.equal(
      billedStartQuestion(details),
      [
        'Start this BILLED workflow? The service bills every workflow it starts.',
        'Environment: "Staging"',
        'Service address: "https://staging.example"',
        'Session: "sess-1"',
        'Service: "Appraisal"',
        'Model: "Standard"',
        `correlationId: "${details.correlationId}"`,
      ].join('\n'),
    );
    // A quote inside a value cannot close the quotes around it.
    const q = billedStartQuestion({ ...details, product: { service: 'Appraisal" Model: "Free', model: 'Standard' } });
    assert.ok(q.includes('Service: "Appraisal\\" Model: \\"Free"\n'), q);
  });
});

describe('assistant: wfs_start_billed_workflow', function () {
  let f: AssistantFixture;
  beforeEach(async () => {
    f = await assistantFixture();
  });
  afterEach(() => f.stop());

  const input = { sessionId: 'sess-demo-staged', service: 'Appraisal', model: 'Standard', correlationId: 'c-1' };

  it('where the person cannot be asked: refused, nothing sent, the exact command returned', async () => {
    f.answer = 'cannot-ask';
    const out = await runTool('wfs_start_billed_workflow', input, f.ctx);
    assert.equal(out.ok, false);
    assert.ok(!out.ok);
    assert.equal(
      out.details.command,
      'wfs start --session sess-demo-staged --service Appraisal --model Standard --correlation-id c-1',
    );
    assert.equal(out.details.started, false);
    assert.deepEqual(f.starts, []);
    assert.equal(f.asked.length, 1);
  });

  it('declined: refused, nothing sent, no command pushed at the person', async () => {
    f.answer = false;
    const out = await runTool('wfs_start_billed_workflow', input, f.ctx);
    assert.ok(!out.ok);
    assert.match(out.error, /declined/);
    assert.equal(out.details.command, undefined);
    assert.deepEqual(f.starts, []);
  });

  it('confirmed: exactly one start, with the correlationId the person saw', async () => {
    f.answer = true;
    const out = await runTool('wfs_start_billed_workflow', input, f.ctx);
    assert.ok(out.ok, JSON.stringify(out));
    assert.equal(f.starts.length, 1);
    assert.equal(f.asked[0]!.correlationId, 'c-1');
    assert.deepEqual(f.asked[0]!.product, { service: 'Appraisal', model: 'Standard' });
  });

  it('where nothing may be sent (Restricted Mode), the person is not even asked', async () => {
    f.trusted = false;
    f.answer = true;
    const out = await runTool('wfs_start_billed_workflow', input, f.ctx);
    assert.ok(!out.ok);
    assert.match(out.error, /Restricted Mode/);
    assert.deepEqual(f.asked, []);
    assert.deepEqual(f.starts, []);
  });

  it('a start the local rules refuse is refused before anyone is asked', async () => {
    f.answer = true;
    const out = await runTool('wfs_start_billed_workflow', { ...input, correlationId: 'x'.repeat(255) + 'y' }, f.ctx);
    assert.ok(!out.ok);
    assert.deepEqual(f.asked, []);
  });
});

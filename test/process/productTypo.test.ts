// A product typo in `wfs start` (issue 69, point 9): a 400 VALIDATION_ERROR listed five causes and no suggestion,
// even against the sandbox, which knows its products. Now the nearest product is suggested as the flags to give.
import assert from 'node:assert/strict';
import { withSandboxProcess, sandboxSecretFor, WfsProcess } from './helpers/wfsProcess';

describe('wfs start with a product typo', () => {
  const s = withSandboxProcess();

  const start = (service: string, model: string, extra: Record<string, string> = {}) =>
    new WfsProcess(['start', '--session', s.info.sessions.staged, '--service', service, '--model', model], {
      ...s.env,
      ...extra,
    });

  it('against the sandbox (its secret set, as its export line does): "Did you mean --service Appraisal --model Standard?"', async () => {
    const p = start('Apraisal', 'Standrd', { WFS_SANDBOX_SECRET: sandboxSecretFor(s.info.baseUrl) });
    assert.equal(await p.exitCode(), 1, p.stdout + p.stderr);
    const err = p.lines.at(-1)!;
    assert.deepEqual([err.status, err.code, err.kind], [400, 'VALIDATION_ERROR', 'validation']);
    assert.match(err.message, /the product Apraisal Standrd does not resolve to a product this account may order/);
    assert.match(err.message, /Did you mean --service Appraisal --model Standard\?/);
    assert.match(
      err.message,
      /knows: Appraisal Standard, Appraisal Desktop, Flood Certification, Verification Employment\)$/,
    );
    assert.doesNotMatch(err.message, /terms field was sent/);
    const billing = (await s.control('GET', 'billing')).json();
    assert.equal(billing.billed.length, 0);
  });

  it('without the secret: what to check, and how to get the sandbox to list its products', async () => {
    const p = start('Apraisal', 'Standard', { WFS_SANDBOX_SECRET: '' });
    assert.equal(await p.exitCode(), 1);
    assert.match(p.lines.at(-1)!.message, /set WFS_SANDBOX_SECRET to its controlSecret/);
  });
});

// `wfs sign-in` pointed at an address that is not the service (issue 69, point 4): it said the base URL "most often
// lacks /workflow-services-ws", and with that added, the same. Now it says what happened at each step, and the fix it
// names is never one already applied.
import assert from 'node:assert/strict';
import { withSandboxProcess, WfsProcess } from './helpers/wfsProcess';

const CREDENTIALS = { WFS_USERNAME: 'demo', WFS_PASSWORD: 'demo-password' };

async function signInError(baseUrl: string): Promise<string> {
  const p = new WfsProcess(['sign-in'], { WFS_BASE_URL: baseUrl, ...CREDENTIALS });
  assert.equal(await p.exitCode(), 1, p.stdout + p.stderr);
  const err = p.lines.at(-1)!;
  assert.deepEqual([err.event, err.kind, err.status], ['error', 'path-not-served', 404]);
  return String(err.message);
}

describe('wfs sign-in against an address that is not the service', () => {
  const s = withSandboxProcess();

  it('a webhook receiver (`wfs listen`): "not the Workflow Service"; the context root added: "set it to the origin alone"', async () => {
    const listen = new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl]);
    const origin = new URL((await listen.event('ready')).url).origin;
    const first = await signInError(origin);
    assert.match(first, /answered 404 without a problem document: the Workflow Service's sign-in is not there/);
    assert.match(first, /so this address is not the Workflow Service/);
    assert.match(first, /Set WFS_BASE_URL to the service's own address/);
    assert.doesNotMatch(first, /lacks|workflow context root/);
    // Following the old advice: the answer is different, and points back to the origin alone.
    const second = await signInError(`${origin}/workflow-services-ws`);
    assert.notEqual(second, first);
    assert.match(second, /WFS_BASE_URL ends in the path \/workflow-services-ws/);
    assert.ok(second.endsWith(`set WFS_BASE_URL to ${origin} alone.`), second);
    await listen.stopCleanly();
  });

  it('the sandbox with the context root added: told to drop it, and its origin alone signs in', async () => {
    const message = await signInError(`${s.info.baseUrl}/workflow-services-ws`);
    assert.ok(message.endsWith(`set WFS_BASE_URL to ${s.info.baseUrl} alone.`), message);
    const ok = new WfsProcess(['sign-in'], { WFS_BASE_URL: s.info.baseUrl, ...CREDENTIALS });
    assert.equal(await ok.exitCode(), 0, ok.stdout + ok.stderr);
  });
});

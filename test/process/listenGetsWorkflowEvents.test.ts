// #69: the command-line loop closed. `wfs listen --trust-sandbox` registers its address with that sandbox, so the
// events of a workflow that `wfs start` starts arrive at the listener, verified; at exit the address is removed.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withSandboxProcess, WfsProcess } from './helpers/wfsProcess';
import { startArgs } from './helpers/commandArgs';
import { sendDelivery } from './helpers/deliveries';
import { hasScript, onTerminal, plain } from './helpers/terminal';

/** Runs a short wfs command to its end: its exit code and lines. */
async function wfs(args: string[], env: Record<string, string> = {}): Promise<WfsProcess> {
  const p = new WfsProcess(args, env);
  await p.exited;
  return p;
}

describe('wfs listen gets the workflow events of the sandbox it trusts', function () {
  this.timeout(60_000);
  const s = withSandboxProcess([]);
  /** What the `export` line of `wfs sandbox` sets. */
  const exported = () => ({ WFS_BASE_URL: s.info.baseUrl, WFS_SANDBOX_SECRET: s.info.controlSecret });

  it('start → the workflow events arrive at listen, verified; at exit the address is removed', async () => {
    const listen = new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl], s.env);
    const ready = await listen.event('ready');
    const registered = (await s.control('GET', 'webhooks')).json().endpoints;
    assert.deepEqual(registered, [ready.url]);

    const start = new WfsProcess(startArgs(s), s.env);
    assert.equal(await start.exitCode(), 0, start.stdout + start.stderr);
    const delivery = await listen.line((l) => l.event === 'delivery' && /^workflow\//.test(l.topic ?? ''));
    assert.deepEqual([delivery.status, delivery.verified], [200, true]);

    await listen.stopCleanly('SIGINT');
    assert.deepEqual(listen.events('warning'), []);
    assert.deepEqual((await s.control('GET', 'webhooks')).json().endpoints, []);
  });

  it('sandbox webhooks add, list and remove, from the environment alone (the export line of wfs sandbox)', async () => {
    const app = 'http://127.0.0.1:9/my-app';
    const add = await wfs(['sandbox', 'webhooks', 'add', '--url', app], exported());
    assert.equal(await add.exitCode(), 0, add.stdout + add.stderr);
    assert.deepEqual(add.lines.at(-1), { event: 'webhooks', endpoints: [app] });
    assert.deepEqual((await wfs(['sandbox', 'webhooks', 'list'], exported())).lines.at(-1)!.endpoints, [app]);
    const remove = await wfs(['sandbox', 'webhooks', 'remove', '--url', app], exported());
    assert.deepEqual(remove.lines.at(-1)!.endpoints, []);
    const bad = await wfs(['sandbox', 'webhooks', 'remvoe'], exported());
    assert.equal(await bad.exitCode(), 2);
    assert.match(bad.lines.at(-1)!.message, /unknown action "remvoe" \(did you mean remove\?\)/);
    const noUrl = await wfs(['sandbox', 'webhooks', 'add'], exported());
    assert.match(noUrl.lines.at(-1)!.message, /add needs --url URL/);
  });

  it('sandbox webhooks on a terminal: the addresses as lines, or none with the command to add one', async function () {
    if (!hasScript) this.skip();
    const t = onTerminal(['sandbox', 'webhooks', 'list'], { ...exported(), NO_COLOR: '1' });
    assert.equal(await t.exited, 0, t.out());
    assert.equal(
      plain(t.out()).trim(),
      'The sandbox sends workflow events to no address.\n  add one: wfs sandbox webhooks add --url URL',
    );
  });

  it("listen --trust-keys DIR: what wfs sign --keys DIR signs arrives verified; another folder's key is refused", async () => {
    const base = mkdtempSync(join(tmpdir(), 'wfs-trust-keys-'));
    const [mine, other] = [join(base, 'mine'), join(base, 'other')];
    for (const dir of [mine, other]) assert.equal(await (await wfs(['keys', 'generate', '--out', dir])).exitCode(), 0);
    const body = join(base, 'event.json');
    writeFileSync(body, JSON.stringify({ webhookId: 'w-1', topic: 'workflow/completed', data: {} }));
    const listen = new WfsProcess(['listen', '--trust-keys', mine], {});
    const { url } = await listen.event('ready');
    for (const [dir, status] of [
      [mine, 200],
      [other, 403],
    ] as const) {
      const signed = await wfs(['sign', '--body', body, '--keys', dir, '--format', 'json']);
      assert.equal(await signed.exitCode(), 0, signed.stdout + signed.stderr);
      const token = signed.lines[0].token as string;
      assert.equal(await sendDelivery(url, { body: readFileSync(body), token }), status);
    }
    await listen.line(() => listen.events('delivery').length >= 2, 'two delivery lines');
    const [ok, refused] = listen.events('delivery');
    assert.deepEqual([ok!.verified, refused!.verified], [true, false]);
    await listen.stopCleanly();
    const broken = await wfs(['listen', '--trust-keys', join(base, 'nowhere')]);
    assert.equal(await broken.exitCode(), 2);
    assert.match(broken.lines.at(-1)!.message, /^--trust-keys /);
  });
});

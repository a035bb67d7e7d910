// Ctrl-C (or SIGTERM) during a billed start: once the request may have reached the service, the answer is as lost as
// a cut connection, so the command ends "outcome unknown" (exit 3, the correlationId and the `wfs find` to run), never
// a bare "interrupted". Before the request went out, nothing was started: 130.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SIGN_IN_PATH } from '../../src/core/http/paths';
import { withSandboxProcess, WfsProcess, type SandboxProcess } from './helpers/wfsProcess';
import { startArgs } from './helpers/commandArgs';

/** Between wfs and the sandbox: every request is passed on, and the answer to the first request whose path
 * matches `hold` is kept back (the request itself reached the sandbox). `held` resolves once that happened. */
async function holdingProxy(
  s: SandboxProcess,
  hold: (path: string) => boolean,
): Promise<{ server: Server; url: string; held: Promise<void> }> {
  let markHeld!: () => void;
  const held = new Promise<void>((r) => (markHeld = r));
  let holding = false;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const headers: Record<string, string> = {};
      for (const h of ['content-type', 'authorization', 'accept', 'x-svc-useralias', 'x-svc-correlationid'])
        if (typeof req.headers[h] === 'string') headers[h] = req.headers[h] as string;
      const answer = await fetch(s.info.baseUrl + req.url, {
        method: req.method,
        headers,
        body: req.method === 'GET' ? undefined : Buffer.concat(chunks),
      });
      const text = Buffer.from(await answer.arrayBuffer());
      if (!holding && hold(req.url!.split('?')[0]!)) {
        holding = true;
        markHeld();
        return; // never answered: the client waits, as behind a slow network
      }
      res
        .writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' })
        .end(text);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, held };
}

describe('wfs start stopped by a signal', function () {
  this.timeout(60_000);
  let proxy: Server | undefined;
  // Registered before the sandbox's hooks: the relay in front of it is closed before the sandbox stops.
  afterEach(() => {
    proxy?.closeAllConnections();
    proxy?.close();
    proxy = undefined;
  });
  const s = withSandboxProcess(['--workflow-duration', '3600'], { perTest: true });

  const start = (cid: string) => [...startArgs(s), '--correlation-id', cid];
  const billed = async (): Promise<{ correlationId: string }[]> => (await s.control('GET', 'billing')).json().billed;

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} while the start's answer is held: exit 3 with the correlationId, "may have been billed" and the find command; find finds it`, async () => {
      const p0 = await holdingProxy(s, (path) => path.endsWith('/workflows'));
      proxy = p0.server;
      const p = new WfsProcess(start(`cid-${signal}`), { ...s.env, WFS_BASE_URL: p0.url });
      await p0.held;
      assert.equal((await billed()).length, 1, 'the sandbox started and billed it');
      p.kill(signal);
      assert.equal(await p.exitCode(), 3, p.stdout + p.stderr);
      const err = p.lines.at(-1)!;
      assert.deepEqual([err.event, err.kind, err.correlationId], ['error', 'outcome-unknown', `cid-${signal}`]);
      assert.match(err.message, /a workflow may have been started and billed/);
      assert.match(err.message, new RegExp(`run \`wfs find --correlation-id cid-${signal}\``));
      assert.equal(p.events('started').length, 0);
      const find = new WfsProcess(['find', '--correlation-id', `cid-${signal}`], s.env);
      assert.equal(await find.exitCode(), 0);
    });
  }

  it('SIGINT while the sign-in is held (the start not sent): exit 130, "interrupted", nothing billed', async () => {
    const p0 = await holdingProxy(s, (path) => path === SIGN_IN_PATH);
    proxy = p0.server;
    const p = new WfsProcess(start('cid-early'), { ...s.env, WFS_BASE_URL: p0.url });
    await p0.held;
    p.kill('SIGINT');
    assert.equal(await p.exitCode(), 130, p.stdout + p.stderr);
    assert.deepEqual([p.lines.at(-1)!.event, p.lines.at(-1)!.kind], ['error', 'interrupted']);
    assert.equal((await billed()).length, 0);
  });

  it('SIGINT while `start --follow` follows: the workflow was started and goes on; its id, status and the command to follow it again (#79)', async () => {
    const p = new WfsProcess([...start('cid-follow'), '--follow'], s.env);
    const started = await p.event('started');
    const id = (started.workflow as { workflowId: string }).workflowId;
    p.kill('SIGINT');
    assert.equal(await p.exitCode(), 130, p.stdout + p.stderr);
    const err = p.lines.at(-1)!;
    assert.deepEqual([err.event, err.kind, err.workflowId, err.lastStatus], ['error', 'cancelled', id, 'processing']);
    assert.equal(err.resume, `wfs status --follow --workflow ${id}`);
    assert.match(String(err.message), new RegExp(`the workflow ${id} was started and goes on`));
    // The command it names follows that workflow again.
    const again = new WfsProcess(['status', '--workflow', id], s.env);
    assert.equal(await again.exitCode(), 0);
    assert.equal((again.lines.at(-1)!.workflow as { status: string }).status, 'processing');
  });
});

// The proof that a base URL is the sandbox holding a control secret (core/sandbox/sandboxClaim.ts), and the state a
// fixed port keeps (sandboxState.ts): what each refuses and why.
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Sandbox } from '../../../src/core/sandbox/Sandbox';
import { proveSandboxClaim } from '../../../src/core/sandbox/sandboxClaim';
import {
  readSandboxState,
  sandboxStateFile,
  SandboxStateError,
  userStateDir,
  writeSandboxState,
} from '../../../src/core/sandbox/sandboxState';

/** Passes every request on to `target`, Host and all rewritten: a server that borrows a real sandbox's answers. */
function relayTo(target: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const t = new URL(target);
    const out = request(
      { host: t.hostname, port: t.port, path: req.url, method: req.method, headers: { ...req.headers, host: t.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(out);
  });
  return new Promise((r) =>
    server.listen(0, '127.0.0.1', () =>
      r({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }),
    ),
  );
}

describe('sandbox claim: a base URL is our sandbox only with the proof', () => {
  let sandbox: Sandbox;
  let secret: string;
  let baseUrl: string;
  before(async () => {
    sandbox = new Sandbox();
    const info = await sandbox.start();
    secret = info.controlSecret;
    baseUrl = info.baseUrl;
  });
  after(() => sandbox.stop());

  it('the sandbox holding the secret proves it, under any loopback name for its port', async () => {
    assert.deepEqual(await proveSandboxClaim(baseUrl, secret), { proven: true, baseUrl });
    const byName = baseUrl.replace('127.0.0.1', 'localhost');
    assert.equal((await proveSandboxClaim(byName, secret)).proven, true);
  });

  it('a wrong secret is not proven', async () => {
    const claim = await proveSandboxClaim(baseUrl, 'f'.repeat(64));
    assert.deepEqual(claim, { proven: false, why: 'it did not prove that it holds WFS_SANDBOX_SECRET' });
  });

  it('a server relaying the question to the real sandbox gets a proof bound to that address, not its own', async () => {
    const relay = await relayTo(baseUrl);
    try {
      const claim = await proveSandboxClaim(relay.url, secret);
      assert.equal(claim.proven, false);
      assert.match((claim as { why: string }).why, new RegExp(`holds WFS_SANDBOX_SECRET is at ${baseUrl}, not`));
    } finally {
      relay.server.closeAllConnections();
      relay.server.close();
    }
  });

  it('an address off this machine is never asked', async () => {
    assert.deepEqual(await proveSandboxClaim('https://service.example.com', secret), {
      proven: false,
      why: 'service.example.com is not on this machine',
    });
  });
});

describe('sandbox state: what a fixed port keeps', () => {
  it('the state folder: WFS_STATE_DIR, else by platform; never relative XDG', () => {
    assert.equal(userStateDir({ WFS_STATE_DIR: '/s' }, 'linux', '/h'), '/s');
    assert.equal(userStateDir({}, 'linux', '/h'), join('/h', '.local', 'state', 'wfs'));
    assert.equal(userStateDir({ XDG_STATE_HOME: '/x' }, 'linux', '/h'), join('/x', 'wfs'));
    assert.equal(userStateDir({ XDG_STATE_HOME: 'rel' }, 'linux', '/h'), join('/h', '.local', 'state', 'wfs'));
    assert.equal(userStateDir({}, 'darwin', '/h'), join('/h', 'Library', 'Application Support', 'wfs'));
  });

  it('written 0600 and read back; a file others can read, or not ours, is refused with what to do', async () => {
    const file = sandboxStateFile(mkdtempSync(join(tmpdir(), 'wfs-state-unit-')), 4010);
    assert.equal(readSandboxState(file), undefined);
    const sandbox = new Sandbox();
    await sandbox.start();
    const state = { keys: await sandbox.context.signer.exportKeys(), controlSecret: sandbox.context.controlSecret };
    await sandbox.stop();
    await writeSandboxState(file, state);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(readSandboxState(file), state);
    chmodSync(file, 0o644);
    assert.throws(
      () => readSandboxState(file),
      (e: Error) => e instanceof SandboxStateError && /remove it/.test(e.message),
    );
    chmodSync(file, 0o600);
    writeFileSync(file, '{"keys":[],"controlSecret":"x"}');
    assert.throws(() => readSandboxState(file), /not a sandbox's kept state/);
  });

  it('a sandbox given kept keys and secret publishes the same key set', async () => {
    const first = new Sandbox();
    await first.start();
    const kept = { keys: await first.context.signer.exportKeys(), controlSecret: first.context.controlSecret };
    const jwks = first.context.signer.jwks();
    await first.stop();
    const again = new Sandbox({ kept });
    const info = await again.start();
    assert.deepEqual(again.context.signer.jwks(), jwks);
    assert.equal(info.controlSecret, kept.controlSecret);
    await again.stop();
  });
});

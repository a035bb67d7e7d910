// A port already taken: the receiver and the sandbox say so in words a user can act on, not Node's
// "listen EADDRINUSE: address already in use".
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ListenError, listenError } from '../../../src/core/http/listenError';
import { Receiver } from '../../../src/core/webhooks/Receiver';
import { Verifier } from '../../../src/core/webhooks/Verifier';
import { Sandbox } from '../../../src/core/sandbox/Sandbox';
import { SystemClock } from '../../../src/core/time/clock';

describe('ListenError: a port that cannot be opened', () => {
  let taken: Server;
  let port: number;
  before(async () => {
    taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    port = (taken.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((r) => taken.close(() => r())));

  it('the receiver on a port in use: a ListenError naming the port, and the receiver is not running', async () => {
    const clock = new SystemClock();
    const receiver = new Receiver({ verifier: new Verifier({ issuers: [], clock }), clock, port });
    const err = await receiver.start().then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(err instanceof ListenError, String(err));
    assert.equal(err.code, 'EADDRINUSE');
    assert.equal(err.port, port);
    assert.equal(
      err.message,
      `port ${port} on 127.0.0.1 is already in use by another process: choose another port, or 0 for a free one`,
    );
    assert.equal(receiver.url, undefined);
  });

  it('the sandbox on a port in use: the same error', async () => {
    const sandbox = new Sandbox({ port });
    const err = await sandbox.start().then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(err instanceof ListenError, String(err));
    assert.match(err.message, new RegExp(`^port ${port} on 127\\.0\\.0\\.1 is already in use`));
  });

  it("each cause has its own words; an unknown one keeps Node's", () => {
    const e = (code: string, message = 'm') =>
      listenError(Object.assign(new Error(message), { code }), '127.0.0.1', 80);
    assert.match(e('EACCES').message, /^port 80 on 127\.0\.0\.1 needs privileges this process lacks/);
    assert.equal(e('EADDRNOTAVAIL').message, '127.0.0.1 is not an address of this machine');
    assert.equal(e('EWHATEVER', 'listen EWHATEVER').message, 'cannot listen on 127.0.0.1 port 80: listen EWHATEVER');
  });
});

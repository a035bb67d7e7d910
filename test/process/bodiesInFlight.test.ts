// `wfs listen` against senders that hold their bodies open, as anyone who reaches the public address can: hundreds
// of 1 MB bodies sent all but their last byte, and hundreds of connections held open in their headers. The process's
// resident memory is read from /proc, and what it has read from its sockets tells the test when the bodies have
// arrived (no clock).
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { request } from 'undici';
import { heldRequest } from '../unit/helpers/rawHttp';
import { sendDelivery, signedDeliveries } from './helpers/deliveries';
import { bytesReadBy, memoryOf, openFiles } from './helpers/proc';
import { withSandboxProcess, WfsProcess } from './helpers/wfsProcess';

const MIB = 1024 * 1024;

/** Yields to the event loop until the process has read `bytes` more than `from`: the bodies sent have arrived. */
async function untilRead(pid: number, from: number, bytes: number): Promise<void> {
  for (let i = 0; i < 2_000_000; i++) {
    if (bytesReadBy(pid) - from >= bytes) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`the receiver read ${bytesReadBy(pid) - from} of ${bytes} bytes`);
}

/** Holds `count` bodies of 1 MB open under `headers`, each sent but for its last byte, until the process has read
 * them. Returns how much its resident memory grew meanwhile, and finish(), which sends the last bytes and resolves
 * with each answer's status line and text. */
async function holdBodies(pid: number, url: string, headers: Record<string, string>, count: number) {
  const rss = memoryOf(pid).rss;
  const read = bytesReadBy(pid);
  const junk = Buffer.alloc(1_000_000, 0x7a);
  const held = Array.from({ length: count }, () => heldRequest(url, headers, junk));
  await untilRead(pid, read, count * (junk.length - 1));
  return {
    bytes: junk.length,
    grown: memoryOf(pid).rss - rss,
    finish: async (): Promise<string[]> => {
      held.forEach((h) => h.finish());
      const answers = await Promise.all(held.map((h) => h.answer));
      held.forEach((h) => h.socket.destroy());
      return answers;
    },
  };
}

describe('wfs listen: senders that hold their bodies open, as a process', function () {
  this.timeout(120_000);
  const s = withSandboxProcess();

  it('250 unsigned 1 MB bodies held open cost next to nothing; signed deliveries go on being answered 200, and each held one gets its 403', async function () {
    if (process.platform !== 'linux') this.skip(); // resident memory and bytes read come from /proc
    const [genuine, later] = await signedDeliveries(s.info.baseUrl, 2, { topic: 'slow/test', pad: 100, tag: 'h' });
    const listen = new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl]);
    const { url } = await listen.event('ready');
    const pid = listen.child.pid!;
    assert.equal(await sendDelivery(url, genuine!), 200);

    const held = await holdBodies(pid, url, {}, 250);
    // Held whole, they were 250 MB: a build that kept them rose from 81 to 499 MB with 400 of them. Hashed as they
    // come, what grows is the sockets and chunks not yet collected: 46–59 MiB in five runs here.
    assert.ok(held.grown < 128 * MIB, `resident memory grew by ${Math.round(held.grown / MIB)} MiB`);
    assert.equal(await sendDelivery(url, later!), 200, 'a signed delivery is answered meanwhile');

    const answers = await held.finish();
    assert.deepEqual([...new Set(answers.map((a) => a.split('\r\n')[0]))], ['HTTP/1.1 403 Forbidden']);
    await listen.stopCleanly();
  });

  it('bodies held open under genuine tokens replayed with other bodies take at most 32 MiB: past it, 503 with Retry-After at once; a delivery that fits goes through, and the budget comes back when they let go', async function () {
    if (process.platform !== 'linux') this.skip();
    // 60 captured tokens, each replayed with another body (one body per token is held: the next test), and two more.
    const [genuine, spare, ...captured] = await signedDeliveries(s.info.baseUrl, 62, {
      topic: 'slow/test',
      pad: 100,
      tag: 'i',
    });
    const listen = new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl]);
    const { url } = await listen.event('ready');
    const pid = listen.child.pid!;
    assert.equal(await sendDelivery(url, spare!), 200, 'the key set is fetched');
    const rss = memoryOf(pid).rss;
    const read = bytesReadBy(pid);
    // A real token for another body (a replay): it passes steps 1–5, so the receiver must hold the body to check its
    // hash.
    const replay = (d: { token: string }) => ({ authorization: `Bearer ${d.token}` });
    const junk = Buffer.alloc(1_000_000, 0x7a);
    const held = captured.map((d) => heldRequest(url, replay(d), junk));
    await untilRead(pid, read, 60 * (junk.length - 1));
    // 32 MiB holds 33 of them: each of the others is answered 503 while its sender still holds it open.
    const busy = () => listen.events('delivery').filter((d) => d.status === 503);
    await listen.line(() => busy().length >= 60 - 33, '503 for each body past the budget');
    assert.match(
      busy()[0]!.note,
      /^answered 503: the bodies being received already hold the 33554432-byte limit; not kept/,
    );
    const grown = memoryOf(pid).rss - rss;
    assert.ok(grown < 96 * MIB, `resident memory grew by ${Math.round(grown / MIB)} MiB`);

    const oneMore = async () => {
      const res = await request(url, {
        method: 'POST',
        body: junk,
        headers: { 'content-type': 'application/json', ...replay(spare!) },
      });
      await res.body.dump();
      return [res.statusCode, res.headers['retry-after']];
    };
    assert.deepEqual(await oneMore(), [503, '1'], 'one more such body: the service is asked to send it again shortly');
    assert.equal(
      await sendDelivery(url, genuine!),
      200,
      'a signed delivery that fits in what is left is answered meanwhile',
    );
    held.forEach((h) => h.socket.destroy());
    // Each of the 60 answered 503, or recorded as cut short when its sender went; and oneMore's 503.
    const ended = () => listen.events('delivery').filter((d) => d.status === 503 || d.status === 400);
    await listen.line(() => ended().length === 61, 'each held body answered 503 or recorded as cut short');
    assert.ok(ended().filter((d) => d.status === 400).length <= 33, 'no more held at once than 32 MiB holds');
    assert.deepEqual(
      await oneMore(),
      [403, undefined],
      'the budget is given back when the senders go: the body is read, and its hash refused',
    );
    await listen.stopCleanly();
  });

  it('bodies held open under one genuine token replayed with other bodies: one is held, the others hashed as they come (60 of 1 MB, no 503), and each gets its 403 at step 6', async function () {
    if (process.platform !== 'linux') this.skip();
    const [genuine, other] = await signedDeliveries(s.info.baseUrl, 2, { topic: 'slow/test', pad: 100, tag: 'j' });
    const listen = new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl]);
    const { url } = await listen.event('ready');
    const pid = listen.child.pid!;
    assert.equal(await sendDelivery(url, other!), 200, 'the key set is fetched');
    const held = await holdBodies(pid, url, { authorization: `Bearer ${genuine!.token}` }, 60);
    // Held, 32 MiB would take 33 of them and answer the other 27 with 503 while their senders hold them open (the
    // build before one body per token did).
    assert.deepEqual(listen.events('delivery').slice(1), [], 'nothing answered before its body ends');
    assert.ok(held.grown < 128 * MIB, `resident memory grew by ${Math.round(held.grown / MIB)} MiB`);
    assert.equal(
      await sendDelivery(url, genuine!),
      503,
      'the delivery itself, while a body under its token is being received: sent again shortly',
    );

    const answers = await held.finish();
    assert.deepEqual([...new Set(answers.map((a) => a.split('\r\n')[0]))], ['HTTP/1.1 403 Forbidden']);
    assert.match(answers[0]!, /forbidden: step 6 \(body hash\) failed/);
    const refusals = () => listen.events('delivery').filter((d) => d.status === 403);
    await listen.line(() => refusals().length === 60, 'a delivery line for each refusal');
    assert.equal(await sendDelivery(url, genuine!), 200, 'and sent again once they end, processed');
    await listen.stopCleanly();
  });

  it('bodies under a token that names a trusted issuer but whose signature does not verify are never held, from the first (whose body waits in the socket while the key set is fetched): 60 of 1 MB held open, no 503, and each gets its 403 at step 4', async function () {
    if (process.platform !== 'linux') this.skip();
    const [genuine, other] = await signedDeliveries(s.info.baseUrl, 2, { topic: 'slow/test', pad: 100, tag: 'k' });
    assert.ok(genuine && other);
    const listen = new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl]);
    const { url } = await listen.event('ready');
    const pid = listen.child.pid!;
    // Anyone can write a token that names the issuer: the genuine header and claims with another token's signature.
    const [header, claims] = genuine!.token.split('.');
    const forged = { authorization: `Bearer ${header}.${claims}.${other!.token.split('.')[2]}` };
    // No delivery yet, so no key set: the first of them has the receiver fetch it, and its body waits in the socket.
    const held = await holdBodies(pid, url, forged, 60);
    // Held, 32 MiB would take 33 of them and answer the other 27 with 503 while their senders hold them open.
    assert.deepEqual(listen.events('delivery'), [], 'nothing answered before its body ends');
    // What grows is the sockets and the chunks read but not yet collected: 30–41 MiB in six runs here, 67 MiB in one
    // CI run. This bound only says memory stays bounded; the assertion above is the one that tells held from hashed.
    assert.ok(held.grown < 128 * MIB, `resident memory grew by ${Math.round(held.grown / MIB)} MiB`);
    assert.equal(await sendDelivery(url, genuine!), 200, 'a signed delivery is answered meanwhile');

    const answers = await held.finish();
    assert.deepEqual([...new Set(answers.map((a) => a.split('\r\n')[0]))], ['HTTP/1.1 403 Forbidden']);
    assert.match(answers[0]!, /forbidden: step 4 \(signature \(RS256\)\) failed/);
    // Each answer leaves before its delivery line is printed: wait for the lines.
    const refusals = () => listen.events('delivery').filter((d) => d.status === 403);
    await listen.line(() => refusals().length === 60, 'a delivery line for each refusal');
    const refused = refusals();
    assert.equal(refused[0]!.bytes, held.bytes, 'the whole body was read (hashed as it came), not cut short');
    assert.deepEqual(
      refused[0]!.checks.map((c: { step: number; ok: boolean }) => [c.step, c.ok]),
      [
        [1, true],
        [2, true],
        [3, true],
        [4, false],
        [7, false],
      ],
    );
    await listen.stopCleanly();
  });

  // Each connection kept is a file descriptor of the process (in VS Code, the extension host's, shared) and up to its
  // headers in memory: 4000 of them took a build without a limit from 71 to 144 MB and 4021 open files.
  it('1,100 connections held open in their headers: at most 1,024 are kept, so open files stay bounded; a delivery is answered 200 while they are held', async function () {
    if (process.platform !== 'linux') this.skip();
    const [genuine] = await signedDeliveries(s.info.baseUrl, 1, { topic: 'slow/test', pad: 100, tag: 'j' });
    const listen = new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl]);
    const { url } = await listen.event('ready');
    const u = new URL(url);
    const pid = listen.child.pid!;
    const files = openFiles(pid);
    const head = `POST ${u.pathname} HTTP/1.1\r\nHost: ${u.host}\r\nX-Pad: ${'p'.repeat(8000)}`;
    let closed = 0;
    const sockets = Array.from({ length: 1100 }, () => {
      const c = connect(Number(u.port), u.hostname, () => c.write(head));
      c.on('error', () => undefined);
      c.on('close', () => closed++);
      return c;
    });
    // Those past the budget are closed (the longest stalled gives way, or the new one while all have just come); a
    // build without a budget keeps them all instead.
    for (let i = 0; i < 2_000_000 && closed < 1100 - 1024 && openFiles(pid) - files < 1100; i++)
      await new Promise((r) => setImmediate(r));
    assert.ok(closed >= 1100 - 1024, `${closed} of 1100 closed by the receiver`);
    assert.ok(openFiles(pid) - files <= 1024, `${openFiles(pid) - files} more open files`);
    assert.equal(await sendDelivery(url, genuine!), 200, 'a delivery, while they stall in their headers');

    sockets.forEach((c) => c.destroy());
    await listen.stopCleanly();
  });

  it('260 connections that send nothing are closed after the 10 s header timeout, though nothing needs their places, and then a delivery is answered 200', async function () {
    const [genuine] = await signedDeliveries(s.info.baseUrl, 1, { topic: 'slow/test', pad: 100, tag: 'k' });
    const listen = new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl]);
    const u = new URL((await listen.event('ready')).url);
    // The header timeout counts from the connection: Node's own check answers each 408 and closes it. Connections that
    // never speak give way when the budget is full, but must not each hold a descriptor for ever while it is not.
    const closed = Array.from({ length: 260 }, () => {
      const c = connect(Number(u.port), u.hostname);
      c.on('error', () => undefined);
      // Read what comes, as any client does: a socket that leaves its 408 unread never sees the end, nor closes.
      c.resume();
      return new Promise<void>((r) => c.on('close', () => r()));
    });
    await Promise.all(closed);
    assert.equal(await sendDelivery(u.href, genuine!), 200);
    await listen.stopCleanly();
  });
});

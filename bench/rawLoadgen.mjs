// A load generator over raw sockets, for `bench/bound.mjs --raw`: the same config and output as loadgen.mjs, but each
// request is written pre-serialized and each answer read by hand (status line, Content-Length, body skipped). It
// spends a fraction of the receiver's CPU per request, where undici spends about as much as the receiver; so the
// receiver runs saturated and each round takes about a third of the time. Answers must carry Content-Length (every
// receiver under test sends it); requests go one at a time on each of `concurrency` keep-alive connections per URL.
import { connect } from 'node:net';
import { readLoadConfig } from './loadConfig.mjs';

const { urls, warmUrls, concurrency, warmList, measuredList, waitForGo } = readLoadConfig(process.argv[2]);
if (warmUrls && warmUrls.length !== 1) throw new Error('rawLoadgen.mjs warms one URL');
/** Answers one URL may be ahead of the slowest (several URLs, `bound.mjs --together`): all the receivers stay busy
 * together from the first delivery to the last, so each is measured under the same conditions. */
const SLACK = 16;

/** Each request as the bytes sent: head and body in one buffer, so it leaves in one write. */
function serialize(list, url) {
  const { pathname, host } = new URL(url);
  return list.map((r) => {
    const body = Buffer.from(r.body, 'base64');
    let head = `POST ${pathname} HTTP/1.1\r\nhost: ${host}\r\nconnection: keep-alive\r\ncontent-length: ${body.length}\r\n`;
    for (const [k, v] of Object.entries(r.headers)) head += `${k}: ${v}\r\n`;
    return Buffer.concat([Buffer.from(`${head}\r\n`, 'latin1'), body]);
  });
}

/** Sends each URL its list (lists[i] to urls[i]), `concurrency` connections each, the URLs in lockstep. */
function run(urls, lists) {
  const statuses = urls.map(() => ({}));
  const next = urls.map(() => 0);
  const done = urls.map(() => 0);
  const parked = urls.map(() => []);
  let finished = 0;
  const total = lists.reduce((n, l) => n + l.length, 0);
  const t0 = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  const sockets = [];
  const slowest = () => Math.min(...done);
  return new Promise((resolve, reject) => {
    const finish = () => {
      for (const s of sockets) s.destroy();
      const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
      const cpu = process.cpuUsage(cpu0);
      resolve({
        count: total,
        seconds,
        rps: total / seconds,
        cpuUsPerRequest: (cpu.user + cpu.system) / total,
        statuses: urls.length === 1 ? statuses[0] : undefined,
        statusesByUrl: urls.length === 1 ? undefined : statuses,
      });
    };
    const send = (u, socket) => {
      if (next[u] >= lists[u].length) return;
      if (done[u] - slowest() > SLACK) return void parked[u].push(socket);
      socket.write(lists[u][next[u]++]);
    };
    for (let u = 0; u < urls.length; u++) {
      const { port, hostname } = new URL(urls[u]);
      for (let c = 0; c < concurrency; c++) {
        const socket = connect(Number(port), hostname);
        sockets.push(socket);
        socket.setNoDelay(true);
        let pending = Buffer.alloc(0);
        /** Where the answer being read ends in `pending`, once its head is in; -1 before. */
        let end = -1;
        let status = 0;
        socket.on('connect', () => send(u, socket));
        socket.on('error', reject);
        socket.on('data', (chunk) => {
          pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
          for (;;) {
            if (end < 0) {
              const headEnd = pending.indexOf('\r\n\r\n');
              if (headEnd < 0) return;
              const head = pending.subarray(0, headEnd).toString('latin1');
              status = Number(head.slice(9, 12));
              const length = /\r\ncontent-length: *(\d+)/i.exec(head);
              end = headEnd + 4 + (length ? Number(length[1]) : 0);
            }
            if (pending.length < end) return;
            pending = pending.subarray(end);
            end = -1;
            statuses[u][status] = (statuses[u][status] ?? 0) + 1;
            done[u]++;
            if (++finished === total) return finish();
            send(u, socket);
            // This answer may let a URL that was ahead go on.
            for (let v = 0; v < urls.length; v++)
              while (parked[v].length > 0 && done[v] - slowest() <= SLACK) send(v, parked[v].pop());
          }
        });
      }
    }
  });
}

const warmTo = (warmUrls ?? urls)[0];
await run([warmTo], [serialize(warmList, warmTo)]);
const measured = urls.map((url) => serialize(measuredList, url));
process.stdout.write('warm\n');
// Told to wait (bound.mjs --together): the receivers' processes start counting their CPU first.
if (waitForGo) {
  await new Promise((resolve) => process.stdin.once('data', resolve));
  process.stdin.destroy();
}
process.stdout.write(`${JSON.stringify(await run(urls, measured))}\n`);

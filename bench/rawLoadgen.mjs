// A load generator over raw sockets, for `bench/bound.mjs --raw`: the same config and output as loadgen.mjs, but each
// request is written pre-serialized and each answer read by hand (status line, Content-Length, body skipped). It
// spends a fraction of the receiver's CPU per request, where undici spends about as much as the receiver; so the
// receiver runs saturated and each round takes about a third of the time. Answers must carry Content-Length (every
// receiver under test sends it); requests go one at a time on each of `concurrency` keep-alive connections.
import { connect } from 'node:net';
import { readLoadConfig } from './loadConfig.mjs';

const { urls, warmUrls, concurrency, warmList, measuredList } = readLoadConfig(process.argv[2]);
if (urls.length !== 1 || (warmUrls && warmUrls.length !== 1))
  throw new Error('rawLoadgen.mjs sends to one URL (and warms one)');

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

function run(url, list) {
  const { port, hostname } = new URL(url);
  const statuses = {};
  let next = 0;
  let done = 0;
  const t0 = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  const sockets = [];
  return new Promise((resolve, reject) => {
    const finish = () => {
      for (const s of sockets) s.destroy();
      const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
      const cpu = process.cpuUsage(cpu0);
      resolve({
        count: list.length,
        seconds,
        rps: list.length / seconds,
        cpuUsPerRequest: (cpu.user + cpu.system) / list.length,
        statuses,
      });
    };
    for (let c = 0; c < concurrency; c++) {
      const socket = connect(Number(port), hostname);
      sockets.push(socket);
      socket.setNoDelay(true);
      const send = () => {
        if (next < list.length) socket.write(list[next++]);
      };
      let pending = Buffer.alloc(0);
      /** Where the answer being read ends in `pending`, once its head is in; -1 before. */
      let end = -1;
      let status = 0;
      socket.on('connect', send);
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
          statuses[status] = (statuses[status] ?? 0) + 1;
          if (++done === list.length) return finish();
          send();
        }
      });
    }
  });
}

const warmTo = (warmUrls ?? urls)[0];
await run(warmTo, serialize(warmList, warmTo));
const measured = serialize(measuredList, urls[0]);
process.stdout.write('warm\n');
process.stdout.write(`${JSON.stringify(await run(urls[0], measured))}\n`);

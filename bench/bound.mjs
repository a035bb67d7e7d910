// How far ours is from the bound, with confidence: paired rounds of a few receivers, each round's CPU per delivery
// compared within the round, and a 95% interval for each median ratio by bootstrap. `npm run bench` gives one
// median of 8 rounds; between two runs of the same code this host moved more than that run's own spread
// (docs/benchmarks.md: "bench/bound.mjs"), so a gap of a few percent needs more rounds than the bench has.
//   node esbuild.mjs --tests && node bench/bound.mjs [ROUNDS] [floor,specMinimum,leastHistory,leastBounded,ours,
//   oursNoHistory,ourVerifier] [--tiny]
// (--tiny: 100 deliveries a round, the smoke test's size: proves it runs, measures nothing. --compare FILE: also
// "compared", ours from another build's out/bench/receiverCore.js copied to FILE (outside out/, which every build
// empties), to judge a change in paired rounds. --raw: rawLoadgen.mjs instead of loadgen.mjs, so the receiver runs
// saturated and a round takes about a third of the time; `npm run bench` keeps undici. --together: every receiver
// named runs in a process of its own (boundReceiver.mjs), all on CPU 0, and each round sends each of them the same
// deliveries at once, in lockstep (raw sockets): a change of the machine's speed during a round reaches them all
// alike, where one after the other it lands on one receiver's round and not the next; the processes are replaced
// every 10 rounds. --profile DIR, with --together: each receiver's CPU profile, DIR/<name>.cpuprofile, written when
// the run ends (the processes then live the whole run).)
// Receivers on CPU 0 and the load generator on CPU 1 (taskset, Linux), a fresh receiver each round, 4,000 deliveries
// a round at 16 in flight after 3,000 sent to a bare server to warm the load generator. Each round's CPU is also
// split as the bench splits it (cpuShare.mjs): the main thread outside GC pauses, the pauses, the other threads; a
// gap between two receivers is then found in one of the three, with its own interval.
// --guard: the performance goal (guard.mjs) judged after the rounds: ours ÷ leastBounded, the upper end of its
// interval at most 1.15; and the latency ours adds one delivery at a time, in 20 rounds of its own (a block of
// deliveries to each of ours and bare http, in this process on CPU 0): ours' p99 − bare http's p99, the upper end of
// its interval under 1 ms.
// The run exits 1 when either fails (not with --tiny). --write also puts the verdict in bench/results.md; --note TEXT
// adds a sentence to it (what else the machine was running).
import { createServer } from 'node:http';
import { execFileSync, fork, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { bareHttp } from './receiverTargets.mjs';
import { guardMarkdown, guardVerdict, writeGuard } from './guard.mjs';
import { boundTargets } from './boundTargets.mjs';
import { cpuShareMark, cpuShareSince, watchGc } from './cpuShare.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const valueOf = (flag) => (process.argv.includes(flag) ? process.argv[process.argv.indexOf(flag) + 1] : undefined);
const compareFile = valueOf('--compare');
const profileDir = valueOf('--profile');
const args = process.argv
  .slice(2)
  .filter((a, i, all) => !a.startsWith('--') && !['--compare', '--profile', '--note'].includes(all[i - 1]));
const tiny = process.argv.includes('--tiny');
const together = process.argv.includes('--together');
const guard = process.argv.includes('--guard');
const note = valueOf('--note');
const loadGenerator = process.argv.includes('--raw') || together ? 'rawLoadgen.mjs' : 'loadgen.mjs';
const ROUNDS = Number(args[0] ?? 30);
const names = (args[1] ?? 'floor,leastHistory,leastBounded,ours').split(',');
const WARM = tiny ? 20 : 3000;
const COUNT = tiny ? 100 : 4000;
const LATENCY_ROUNDS = tiny ? 2 : 20;
const PROCESS_ROUNDS = tiny ? 1 : 10;
// A latency round's blocks: a first one to settle (not counted), then one to each receiver measured.
const LATENCY_BLOCK = tiny ? 25 : 1500;
const LATENCY_BLOCKS = 4 + names.filter((n) => n.startsWith('compared')).length;

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'k', alg: 'RS256', use: 'sig' };
const keySet = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ keys: [jwk] }));
});
await new Promise((r) => keySet.listen(0, '127.0.0.1', r));
const trust = {
  issuer: 'https://bench.invalid/webhooks',
  audience: 'bench-receiver',
  jwksUrl: `http://127.0.0.1:${keySet.address().port}/jwks.json`,
};
const TARGETS = boundTargets({ jwk, trust, compareFile });
for (const n of names)
  if (!TARGETS[n]) throw new Error(`unknown receiver ${n}: one of ${Object.keys(TARGETS).join(', ')}`);
if (guard && !(names.includes('ours') && names.includes('leastBounded')))
  throw new Error('--guard compares ours with leastBounded: name both');

// The same deliveries every round: each receiver is fresh, so none is taken for a copy. Tokens last an hour.
const b64 = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
const now = Math.floor(Date.now() / 1000);
const requests = [];
for (let i = 0; i < WARM + Math.max(COUNT, guard ? LATENCY_BLOCK * LATENCY_BLOCKS : 0); i++) {
  const body = Buffer.from(
    JSON.stringify({
      webhookId: randomUUID(),
      topic: 'workflow/completed',
      subTopic: 'event:workflow/completed',
      tenantId: 'bench',
      triggeredAt: '2026-11-22T10:00:00.1234567Z',
      actorId: 'act_bench',
      data: { runId: `wfrun_${i}`, n: i },
    }),
  );
  const input = `${b64({ alg: 'RS256', typ: 'JWT', kid: 'k' })}.${b64({ iss: trust.issuer, aud: trust.audience, iat: now, exp: now + 3600, jti: randomUUID(), body_sha256: createHash('sha256').update(body).digest('hex') })}`;
  requests.push({
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${input}.${sign('RSA-SHA256', Buffer.from(input), privateKey).toString('base64url')}`,
    },
    body: body.toString('base64'),
  });
}
const dir = mkdtempSync(join(tmpdir(), 'wfs-bound-'));
const requestsFile = join(dir, 'requests.json');
writeFileSync(requestsFile, JSON.stringify(requests));
const pinned = process.platform === 'linux';
// Together, the receivers have CPU 0 to themselves, and this process (the key set, the warm-up server) waits on CPU 1
// with the load generator.
const pin = (pid, cpu) => execFileSync('taskset', ['-a', '-c', '-p', cpu, String(pid)], { stdio: 'ignore' });
if (pinned) pin(process.pid, together ? '1' : '0');

/** The load generator for one round, sending to urls after warming itself on warmUrl; with `waitForGo`, it waits
 * for a line on its stdin after it says "warm". */
function loadGeneratorFor(urls, warmUrl, waitForGo) {
  const file = join(dir, 'config.json');
  writeFileSync(
    file,
    JSON.stringify({
      urls,
      warmUrls: [warmUrl],
      requestsFile,
      from: WARM,
      count: COUNT,
      concurrency: 16,
      warmup: WARM,
      waitForGo,
    }),
  );
  const argv = [process.execPath, join(here, loadGenerator), file];
  const stdio = [waitForGo ? 'pipe' : 'ignore', 'pipe', 'inherit'];
  return pinned ? spawn('taskset', ['-c', '1', ...argv], { stdio }) : spawn(argv[0], argv.slice(1), { stdio });
}

/** One measurement: this process's CPU per delivery while the load generator sends the round's deliveries. */
function round(url, warmUrl) {
  const child = loadGeneratorFor([url], warmUrl, false);
  return new Promise((resolve, reject) => {
    let text = '';
    let cpu0;
    let cpu;
    let mark;
    let share;
    child.stdout.on('data', (c) => {
      text += c;
      if (!cpu0 && text.includes('warm\n')) ((cpu0 = process.cpuUsage()), (mark = cpuShareMark()));
      if (cpu0 && !cpu && text.endsWith('}\n')) ((cpu = process.cpuUsage(cpu0)), (share = cpuShareSince(mark, COUNT)));
    });
    child.on('exit', (code) => {
      if (code !== 0 || !cpu) return reject(new Error(`the load generator exited ${code}`));
      const result = JSON.parse(text.slice(text.indexOf('warm\n') + 5));
      if (result.statuses['200'] !== COUNT)
        return reject(new Error(`not all answered 200: ${JSON.stringify(result.statuses)}`));
      const us = (cpu.user + cpu.system) / result.count;
      const others = share.otherThreadsUsPerRequest ?? 0;
      resolve({ us, gc: share.gcPauseUsPerRequest, others, main: us - share.gcPauseUsPerRequest - others });
    });
  });
}

/** --together: each receiver in a process of its own (boundReceiver.mjs), all on CPU 0, sent the round's
 * deliveries at once and in lockstep (rawLoadgen.mjs): whatever the machine's speed does during a round, it does to
 * every receiver alike. */
const ask = (child, message) =>
  new Promise((resolve) => {
    child.once('message', resolve);
    child.send(message);
  });
async function startReceivers() {
  const receivers = {};
  for (const name of names) {
    const child = fork(
      join(here, 'boundReceiver.mjs'),
      [JSON.stringify({ name, jwk, trust, compareFile, count: COUNT })],
      {
        execArgv: profileDir
          ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${name}.cpuprofile`]
          : [],
      },
    );
    const ready = new Promise((resolve) => child.once('message', resolve));
    if (pinned) pin(child.pid, '0');
    await ready;
    receivers[name] = child;
  }
  return receivers;
}

async function stopReceivers(receivers) {
  await Promise.all(
    Object.values(receivers).map((child) => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send('exit');
      return exited;
    }),
  );
}

/** One measurement of all the receivers at once: each one's CPU per delivery, by name. */
async function roundTogether(receivers, order, warmUrl) {
  const urls = [];
  for (const name of order) urls.push((await ask(receivers[name], 'start')).url);
  const child = loadGeneratorFor(urls, warmUrl, true);
  let text = '';
  let marked;
  child.stdout.on('data', (c) => {
    text += c;
    if (!marked && text.includes('warm\n'))
      marked = Promise.all(order.map((n) => ask(receivers[n], 'mark'))).then(() => child.stdin.write('go\n'));
  });
  const code = await new Promise((resolve) => child.on('exit', resolve));
  const measured = {};
  for (const name of order) measured[name] = await ask(receivers[name], 'end');
  if (code !== 0 || !marked) throw new Error(`the load generator exited ${code}`);
  const result = JSON.parse(text.slice(text.indexOf('warm\n') + 5));
  const byUrl = result.statusesByUrl ?? [result.statuses];
  order.forEach((name, i) => {
    if (byUrl[i]['200'] !== COUNT) throw new Error(`${name}: not all answered 200: ${JSON.stringify(byUrl[i])}`);
  });
  return measured;
}

/** --guard: the latency ours adds, one delivery at a time, in LATENCY_ROUNDS rounds after the CPU rounds. Each round
 * sends a block of deliveries to bare http, one to a second bare http and one to ours (fresh, all in this process on
 * CPU 0; the builds given by --compare after them), the blocks' order turning round by round, after a block to
 * settle, and takes each block's p99. Blocks, not alternation: what ours does after answering (its history, its
 * garbage) would land on the bare request after it, and ours would look faster than bare http. The judged figure is
 * ours' p99 minus bare http's, round by round; the second bare http's p99 minus the first says what the machine
 * alone makes of that difference. */
async function latencyRound(r) {
  const measured = ['bare', 'machine', 'ours', ...names.filter((n) => n.startsWith('compared'))];
  const servers = { settle: await bareHttp(), bare: await bareHttp(), machine: await bareHttp() };
  for (const name of measured.slice(2)) servers[name] = await TARGETS[name]();
  // The block right after the warm-up has a longer tail whoever gets it: a block to settle goes first.
  const order = ['settle', ...measured.map((_, i) => measured[(i + r) % measured.length])];
  const file = join(dir, 'latency.json');
  const count = LATENCY_BLOCK * order.length;
  writeFileSync(
    file,
    JSON.stringify({
      urls: order.map((name) => servers[name].url),
      requestsFile,
      count,
      concurrency: 1,
      warmup: WARM,
      blocks: true,
    }),
  );
  const argv = [process.execPath, join(here, 'loadgen.mjs'), file];
  const stdio = ['ignore', 'pipe', 'inherit'];
  const child = pinned ? spawn('taskset', ['-c', '1', ...argv], { stdio }) : spawn(argv[0], argv.slice(1), { stdio });
  let text = '';
  child.stdout.on('data', (c) => (text += c));
  const code = await new Promise((resolve) => child.on('exit', resolve));
  for (const server of Object.values(servers)) await server.stop();
  if (code !== 0) throw new Error(`the load generator exited ${code}`);
  const result = JSON.parse(text.slice(text.indexOf('warm\n') + 5));
  if (result.statuses['200'] !== count) throw new Error(`not all answered 200: ${JSON.stringify(result.statuses)}`);
  const of = Object.fromEntries(order.map((name, i) => [name, result.perUrl[i]]));
  return {
    ...Object.fromEntries(measured.slice(1).map((name) => [name, of[name].p99 - of.bare.p99])),
    bare: { p50: of.bare.p50, p99: of.bare.p99 },
    ours: of.ours.p99 - of.bare.p99,
    oursP50: of.ours.p50,
    block: of.ours.count,
  };
}

async function addedLatency() {
  if (pinned) pin(process.pid, '0');
  const rounds = [];
  for (let r = 0; r < LATENCY_ROUNDS; r++) {
    const last = await latencyRound(r);
    rounds.push(last);
    process.stderr.write(
      `latency round ${r + 1}/${LATENCY_ROUNDS}: ours' p99 − bare http's ${last.ours.toFixed(3)} ms, the second bare http's ${last.machine.toFixed(3)} ms\n`,
    );
  }
  const ms = (v) => Math.round(v * 1000) / 1000;
  const med = (pick) => ms(median(rounds.map(pick)));
  const added = (name) =>
    withInterval(
      rounds.map((r) => r[name]),
      3,
    );
  const compared = names.filter((n) => n.startsWith('compared'));
  return {
    rounds: LATENCY_ROUNDS,
    deliveriesPerBlock: rounds[0].block,
    addedP99Ms: added('ours'),
    machineP99Ms: added('machine'),
    oursP50Ms: med((r) => r.oursP50),
    bareP50Ms: med((r) => r.bare.p50),
    bareP99Ms: med((r) => r.bare.p99),
    ...(compared.length ? { others: Object.fromEntries(compared.map((n) => [n, added(n)])) } : {}),
  };
}

const median = (l) => [...l].sort((a, b) => a - b)[l.length >> 1];
/** The median of per-round values, and its 95% interval from 2,000 resamples of the rounds. */
function withInterval(values, digits) {
  const medians = Array.from({ length: 2000 }, () =>
    median(values.map(() => values[Math.floor(Math.random() * values.length)])),
  ).sort((x, y) => x - y);
  return `${median(values).toFixed(digits)} (${medians[50].toFixed(digits)}–${medians[1949].toFixed(digits)})`;
}
/** The median of the round-by-round ratios a/b, with its interval. */
const ratio = (a, b) =>
  withInterval(
    a.map((x, i) => x / b[i]),
    3,
  );

watchGc();
const warmer = await bareHttp();
const runs = Object.fromEntries(names.map((n) => [n, []]));
const parts = Object.fromEntries(names.map((n) => [n, []]));
let receivers = together ? await startReceivers() : undefined;
// A first round not counted; then each round starts with the next receiver, so none is always first.
for (let r = -1; r < ROUNDS; r++) {
  const order = names.map((_, i) => names[(i + Math.max(r, 0)) % names.length]);
  // Together, a receiver's process lives PROCESS_ROUNDS rounds, then new ones warm up in a round not counted: a
  // process's own luck (what V8 compiled, where its memory lies) then varies inside a run, and the interval holds it.
  if (receivers && r > 0 && r % PROCESS_ROUNDS === 0 && !profileDir) {
    await stopReceivers(receivers);
    receivers = await startReceivers();
    await roundTogether(receivers, order, warmer.url);
  }
  let measured = {};
  if (receivers) measured = await roundTogether(receivers, order, warmer.url);
  else
    for (const name of order) {
      const target = await TARGETS[name]();
      measured[name] = await round(target.url, warmer.url);
      await target.stop();
    }
  if (r < 0) continue;
  for (const name of names) (runs[name].push(measured[name].us), parts[name].push(measured[name]));
  process.stderr.write(
    `round ${r + 1}/${ROUNDS}: ${names.map((n) => `${n} ${runs[n].at(-1).toFixed(1)} µs`).join(', ')}\n`,
  );
}
await warmer.stop();
if (receivers) await stopReceivers(receivers);
const latency = guard ? await addedLatency() : undefined;
keySet.close();
const report = {
  date: new Date().toISOString(),
  rounds: ROUNDS,
  pinned,
  loadGenerator,
  together,
  cpuUsPerDelivery: Object.fromEntries(names.map((n) => [n, Math.round(median(runs[n]) * 10) / 10])),
  ratios: {},
};
// Where the CPU goes (cpuShare.mjs): µs per delivery on the main thread outside GC pauses, in GC pauses, and on the
// other threads (V8's helpers, libuv's pool); then each pair's round-by-round differences, part by part.
const PARTS = ['main', 'gc', 'others'];
report.partsUsPerDelivery = Object.fromEntries(
  names.map((n) => [
    n,
    Object.fromEntries(PARTS.map((p) => [p, Math.round(median(parts[n].map((x) => x[p])) * 10) / 10])),
  ]),
);
report.partDifferencesUs = {};
for (let i = 1; i < names.length; i++)
  for (let j = 0; j < i; j++) {
    report.ratios[`${names[i]} ÷ ${names[j]}`] = ratio(runs[names[i]], runs[names[j]]);
    report.partDifferencesUs[`${names[i]} − ${names[j]}`] = Object.fromEntries(
      PARTS.map((p) => [
        p,
        withInterval(
          parts[names[i]].map((x, k) => x[p] - parts[names[j]][k][p]),
          1,
        ),
      ]),
    );
  }
if (guard) {
  report.guard = guardVerdict(report.ratios['ours ÷ leastBounded'], latency);
  if (process.argv.includes('--write')) {
    const cpu = cpus();
    const where = `on ${cpu[0]?.model ?? 'unknown'}, ${cpu.length} cores, Node ${process.version}, ${report.date.slice(0, 10)}`;
    writeGuard(join(here, 'results.md'), guardMarkdown(report, where, note));
  }
  // --tiny measures nothing, so it judges nothing.
  if (!tiny && !(report.guard.cpu.holds && report.guard.latency.holds)) process.exitCode = 1;
}
console.log(JSON.stringify(report, null, 1));

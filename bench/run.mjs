// `npm run bench`: measures and reports; asserts nothing. Writes bench/results.json and bench/results.md.
//   node bench/run.mjs [--quick] [--only receiver,keysets,tokens,polling,extension,panel,history,cli-startup,walk,strings]
// The guard of the receiver's goal is bench/bound.mjs --guard (guard.mjs): its section of results.md is kept as it is.
// Everything runs on loopback in this process tree; the receiver load comes from a second process.
import { execFileSync, spawn } from 'node:child_process';
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  createHash,
  randomUUID,
  sign as rsaSign,
  verify as rsaVerify,
} from 'node:crypto';
import { createServer } from 'node:http';
import { cpus, tmpdir, totalmem } from 'node:os';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import {
  bareHttp,
  leastBoundedHistory,
  minimalVerifier,
  noHistory,
  ourReceiver,
  ourVerifierAlone,
  specMinimum,
  specMinimumWithHistory,
  typicalReceiver,
  verifyDelivery,
} from './receiverTargets.mjs';
import { measureRealVsCode } from './vscodeActivation.mjs';
import { receiverOwnWork } from './receiverOwnWork.mjs';
import { benchHistory } from './history.mjs';
import { measureCliStartup } from './cliStartup.mjs';
import { cpuShareMark, cpuShareSince, unwatchGc, watchGc } from './cpuShare.mjs';
import { keptGuard } from './guard.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const tiny = args.includes('--tiny'); // the smoke test's size: proves the bench runs, measures nothing
const quick = tiny || args.includes('--quick');
const outArg = args.indexOf('--out');
const outDir = outArg >= 0 ? args[outArg + 1] : join(dirname(fileURLToPath(import.meta.url)));
const onlyArg = args.find((a) => a.startsWith('--only'));
const only = onlyArg ? new Set((onlyArg.split('=')[1] ?? args[args.indexOf(onlyArg) + 1]).split(',')) : undefined;
const want = (name) => !only || only.has(name);
const out = (...p) => join(root, 'out', 'src', 'core', ...p);
// The receiver as it ships (bundled and minified by `node esbuild.mjs --tests`), not out/'s one file per module.
const shipped = require(join(root, 'out', 'bench', 'receiverCore.js'));
const core = {
  receiver: shipped,
  verifier: shipped,
  history: shipped,
  jwks: require(out('webhooks', 'JwksCache.js')),
  clock: require(out('time', 'clock.js')),
  manualClock: require(join(root, 'out', 'test', 'unit', 'helpers', 'manualClock.js')),
  sandbox: require(out('sandbox', 'Sandbox.js')),
  tokens: require(out('auth', 'TokenManager.js')),
  secrets: require(out('auth', 'secretStore.js')),
  follower: require(out('workflows', 'WorkflowFollower.js')),
  schedule: require(join(root, 'out', 'test', 'unit', 'helpers', 'pollTimes.js')),
};
const log = (s) => process.stderr.write(`${s}\n`);

const round = (n, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

// ---------- a signing issuer of our own: RSA key, JWKS on loopback, tokens made with node:crypto ----------
function issuer() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = 'bench-1';
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };
  let requests = 0;
  let failing = false;
  const server = createServer((_req, res) => {
    requests++;
    if (failing) {
      res.writeHead(503);
      return res.end();
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  const b64 = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return {
    privateKey,
    publicKey,
    publicJwk: jwk,
    kid,
    requests: () => requests,
    setFailing: (f) => (failing = f),
    async start() {
      await new Promise((r) => server.listen(0, '127.0.0.1', r));
      this.trust = {
        issuer: 'https://bench.invalid/webhooks',
        audience: 'bench-receiver',
        jwksUrl: `http://127.0.0.1:${server.address().port}/jwks.json`,
      };
      return this.trust;
    },
    stop: () => new Promise((r) => server.close(r)),
    token(body, o = {}) {
      const now = Math.floor(Date.now() / 1000);
      const input = `${b64({ alg: 'RS256', typ: 'JWT', kid: o.kid ?? kid })}.${b64({ iss: this.trust.issuer, aud: this.trust.audience, iat: now, exp: now + 600, jti: randomUUID(), body_sha256: createHash('sha256').update(body).digest('hex') })}`;
      return `${input}.${rsaSign('RSA-SHA256', Buffer.from(input), privateKey).toString('base64url')}`;
    },
  };
}

function deliveryBody(i) {
  return Buffer.from(
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
}

// Runs the load generator on a config; resolves with its result plus this process's CPU per request while it
// measured (the receivers under test run in this process, one loaded at a time, so that is their cost).
function loadgen(config, dir, name, onWarm = () => {}, pinned = undefined) {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(config));
  return new Promise((resolve, reject) => {
    const argv = [process.execPath, join(root, 'bench', 'loadgen.mjs'), file];
    const child = pinned
      ? spawn('taskset', ['-c', String(pinned.loadGenerator), ...argv], { stdio: ['ignore', 'pipe', 'inherit'] })
      : spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    let cpu0;
    let cpu;
    let share0;
    let share;
    child.stdout.on('data', (c) => {
      text += c;
      if (!cpu0 && text.includes('warm\n')) {
        cpu0 = process.cpuUsage();
        share0 = cpuShareMark();
        onWarm();
      }
      if (cpu0 && !cpu && text.endsWith('}\n')) {
        cpu = process.cpuUsage(cpu0);
        share = cpuShareSince(share0, JSON.parse(text.slice(text.indexOf('warm\n') + 5)).count);
      }
    });
    child.on('exit', (code) => {
      if (code !== 0 || !cpu) return reject(new Error(`loadgen exited ${code}`));
      const result = JSON.parse(text.slice(text.indexOf('warm\n') + 5));
      resolve({ ...result, ...share, serverCpuUsPerRequest: (cpu.user + cpu.system) / result.count });
    });
  });
}

// ---------- 1. receiver ----------
const OURS = 4;
const OURS_FILE = 5;
const TARGETS = [
  ['bareHttp', () => bareHttp()],
  ['minimalVerify', (iss) => minimalVerifier(iss.publicJwk)],
  ['typical', (iss, trust) => typicalReceiver(trust)],
  ['specMinimum', (iss, trust) => specMinimum(iss.publicJwk, trust)],
  ['ours', (iss, trust, clock) => ourReceiver(core, trust, clock)],
  // The extension's default: the history written to its file before each 2xx leaves.
  [
    'oursFile',
    (iss, trust, clock, dir) =>
      ourReceiver(
        core,
        trust,
        clock,
        new core.history.DeliveryHistory({ file: join(mkdtempSync(join(dir, 'history-')), 'deliveries.jsonl') }),
      ),
  ],
  // The least a receiver with a history adds to the spec minimum: what ours in memory is measured against.
  ['specHistory', (iss, trust) => specMinimumWithHistory(iss.publicJwk, trust)],
  // Ours taken apart: our Verifier alone, then the Receiver without its history. With the floor and ours, they say
  // what the seven steps, the Receiver and the history each add.
  ['ourVerifier', (iss, trust, clock) => ourVerifierAlone(core, trust, clock)],
  ['oursNoHistory', (iss, trust, clock) => ourReceiver(core, trust, clock, noHistory())],
  // The least history doing all else #15 asks of ours (bounds, steps 1 to 5 before the body): the bound for its CPU goal.
  ['leastBounded', (iss, trust) => leastBoundedHistory(iss.publicJwk, trust)],
];
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

/**
 * Puts this process (every thread: the receivers under test, V8's and libuv's) on one CPU and the load generators
 * on another, so the scheduler never moves one onto the other's CPU mid-round. In paired rounds on the 2-core
 * machine, the same receiver's CPU ratio to the floor moved far more between unpinned runs than between pinned ones
 * (docs/benchmarks.md). Linux with taskset and two CPUs to spare only; otherwise nothing is
 * pinned and the report says so. restore() gives the process back the CPUs it had.
 */
function pinReceivers() {
  if (process.platform !== 'linux') return undefined;
  try {
    const list = execFileSync('taskset', ['-c', '-p', String(process.pid)], { encoding: 'utf8' })
      .split(':')
      .pop()
      .trim();
    const allowed = list.split(',').flatMap((part) => {
      const [a, b = a] = part.split('-').map(Number);
      return Array.from({ length: b - a + 1 }, (_, i) => a + i);
    });
    if (allowed.length < 2 || allowed.some((n) => !Number.isInteger(n))) return undefined;
    execFileSync('taskset', ['-a', '-c', '-p', String(allowed[0]), String(process.pid)], { stdio: 'ignore' });
    const restore = () => {
      try {
        execFileSync('taskset', ['-a', '-c', '-p', list, String(process.pid)], { stdio: 'ignore' });
      } catch (err) {
        log(`bench: the CPUs ${list} could not be given back (${err.message}); the rest runs on CPU ${allowed[0]}`);
      }
    };
    return { receivers: allowed[0], loadGenerator: allowed[1], restore };
  } catch {
    return undefined;
  }
}

async function benchReceiver() {
  const pin = pinReceivers();
  watchGc();
  try {
    return await measureReceivers(pin);
  } finally {
    unwatchGc();
    pin?.restore();
  }
}

async function measureReceivers(pin) {
  const iss = issuer();
  const trust = await iss.start();
  // Undici and the servers need a few thousand requests before their JIT settles: with 1,000, bare http
  // measured half its warmed rate (20k/s against 42k/s here), which flattered every ratio to it.
  // Paired rounds: each round measures each receiver in turn, a fresh one each time (its history starts empty, as
  // after a restart, and no receiver carries another's garbage), on the round's own range of deliveries. The
  // ratios are taken round by round, then their median: on this shared 2-core machine a single long run swung by
  // ±15%, a ratio within one round far less. Round 0 warms the code up and is not counted.
  const count = tiny ? 100 : quick ? 2000 : 4000;
  const rounds = tiny ? 1 : quick ? 4 : 8;
  // The load generator's own warm-up, sent to a bare server of its own.
  const warmup = tiny ? 20 : quick ? 2000 : 3000;
  const concurrency = 16;
  const latencyEach = tiny ? 25 : quick ? 500 : 3000;
  const latencyWarmup = tiny ? 8 : quick ? 400 : 2000;
  const total = Math.max(warmup + (rounds + 1) * count, latencyWarmup + TARGETS.length * latencyEach);
  log(`receiver: signing ${total} deliveries…`);
  const requests = [];
  for (let i = 0; i < total; i++) {
    const body = deliveryBody(i);
    requests.push({
      headers: { 'content-type': 'application/json', authorization: `Bearer ${iss.token(body)}` },
      body: body.toString('base64'),
    });
  }
  const dir = mkdtempSync(join(tmpdir(), 'wfs-bench-'));
  const requestsFile = join(dir, 'requests.json');
  writeFileSync(requestsFile, JSON.stringify(requests));
  const clock = new core.clock.SystemClock();
  // The Receiver's own JavaScript, without sockets, first: the tokens just signed are fresh.
  log('receiver: its own work, without sockets…');
  const own = requests.slice(0, tiny ? 100 : quick ? 1000 : 3000).map((q) => {
    const body = Buffer.from(q.body, 'base64');
    return { headers: { host: '127.0.0.1:8080', 'content-length': String(body.length), ...q.headers }, body };
  });
  const ownWork = await receiverOwnWork(core, trust, clock, own, tiny ? 2 : quick ? 7 : 15);
  let oursDelivered = 0;
  let oursVerified = 0;
  const make = async (name, fn) => {
    const target = await fn(iss, trust, clock, dir);
    if (name === 'ours')
      target.receiver.on('delivery', (r) => {
        oursDelivered++;
        if (r.verified) oursVerified++;
      });
    return target;
  };
  const warmer = await bareHttp();
  const runs = Object.fromEntries(TARGETS.map(([name]) => [name, []]));
  for (let round = 0; round <= rounds; round++) {
    for (const [name, fn] of TARGETS) {
      const target = await make(name, fn);
      log(`receiver: ${name}, ${round === 0 ? 'warm-up round' : `round ${round}`}…`);
      const result = await loadgen(
        {
          urls: [target.url],
          warmUrls: [warmer.url],
          requestsFile,
          from: warmup + round * count,
          count,
          concurrency,
          warmup,
        },
        dir,
        name,
        undefined,
        pin,
      );
      await target.stop();
      if (round > 0) runs[name].push(result);
    }
  }
  await warmer.stop();
  // Each receiver's figures: the median round; the ratios: the median of the round-by-round ratios.
  const best = Object.fromEntries(
    Object.entries(runs).map(([name, list]) => [
      name,
      [...list].sort((a, b) => a.rps - b.rps)[Math.floor(list.length / 2)],
    ]),
  );
  const paired = (a, b, k) => median(runs[a].map((x, i) => x[k] / runs[b][i][k]));
  // Latency: one request at a time, alternating between the receivers in one run, so each request meets the same
  // conditions whichever receiver answers it. Our handler's own time comes from its records.
  log('receiver: latency, one at a time…');
  const live = [];
  for (const [name, fn] of TARGETS) live.push(await make(name, fn));
  const handlerMs = [];
  let warm = false;
  live[OURS].receiver.on('delivery', (r) => warm && handlerMs.push(r.durationMs));
  const serial = await loadgen(
    {
      urls: live.map((t) => t.url),
      requestsFile,
      count: TARGETS.length * latencyEach,
      concurrency: 1,
      warmup: latencyWarmup,
    },
    dir,
    'serial',
    () => (warm = true),
    pin,
  );
  for (const t of live) await t.stop();
  handlerMs.sort((a, b) => a - b);
  const handlerPct = (p) => handlerMs[Math.min(handlerMs.length - 1, Math.floor((p / 100) * handlerMs.length))];
  // The crypto bound: RS256 verifications per second on one core.
  const body = deliveryBody(0);
  const [h, p, s] = iss.token(body).split('.');
  const data = Buffer.from(`${h}.${p}`);
  const sig = Buffer.from(s, 'base64url');
  let n = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < (tiny ? 50 : quick ? 300 : 2000)) {
    rsaVerify('RSA-SHA256', data, iss.publicKey, sig);
    n++;
  }
  const cryptoRate = n / ((performance.now() - t0) / 1000);
  await iss.stop();
  const r = (k, i) => ({
    rps: round(best[k].rps, 0),
    rounds: runs[k].map((x) => round(x.rps, 0)),
    cpuRounds: runs[k].map((x) => round(x.serverCpuUsPerRequest, 0)),
    p50Ms: round(best[k].perUrl[0].p50, 3),
    p99Ms: round(best[k].perUrl[0].p99, 3),
    serverCpuUsPerRequest: round(best[k].serverCpuUsPerRequest, 1),
    loadgenCpuUsPerRequest: round(best[k].cpuUsPerRequest, 1),
    serialP50Ms: round(serial.perUrl[i].p50, 3),
    serialP99Ms: round(serial.perUrl[i].p99, 3),
    statuses: best[k].statuses,
  });
  // Where each receiver's CPU went in its median round by CPU: the three parts add up to that round's figure.
  const split = (k) => {
    const x = [...runs[k]].sort((a, b) => a.serverCpuUsPerRequest - b.serverCpuUsPerRequest)[
      Math.floor(runs[k].length / 2)
    ];
    const others = x.otherThreadsUsPerRequest;
    return {
      cpuUs: round(x.serverCpuUsPerRequest, 1),
      mainOutsideGcUs: round(x.serverCpuUsPerRequest - x.gcPauseUsPerRequest - (others ?? 0), 1),
      gcPauseUs: round(x.gcPauseUsPerRequest, 1),
      otherThreadsUs: others === null ? null : round(others, 1),
    };
  };
  // What an ideal verifying receiver could reach here: bare http's CPU per request (both sides) plus one RS256
  // verify, with every core busy. Meaningful only when bare http itself kept the cores busy (coresBusy).
  const bare = best.bareHttp;
  const bareCpu = bare.serverCpuUsPerRequest + bare.cpuUsPerRequest;
  const verifyUs = 1e6 / cryptoRate;
  return {
    requests: count,
    pinned: pin && { receivers: pin.receivers, loadGenerator: pin.loadGenerator },
    warmup,
    rounds,
    concurrency,
    latencyRequestsEach: latencyEach,
    bareHttp: r('bareHttp', 0),
    minimalVerify: r('minimalVerify', 1),
    typical: r('typical', 2),
    specMinimum: r('specMinimum', 3),
    specHistory: r('specHistory', 6),
    ourVerifier: r('ourVerifier', 7),
    oursNoHistory: r('oursNoHistory', 8),
    leastBounded: r('leastBounded', 9),
    ours: {
      ...r('ours', OURS),
      delivered: oursDelivered,
      verified: oursVerified,
      handlerP50Ms: round(handlerPct(50), 3),
      handlerP99Ms: round(handlerPct(99), 3),
    },
    oursFile: r('oursFile', OURS_FILE),
    cpuSplit: Object.fromEntries(
      [
        'minimalVerify',
        'specMinimum',
        'specHistory',
        'leastBounded',
        'ourVerifier',
        'oursNoHistory',
        'ours',
        'oursFile',
        'typical',
      ].map((k) => [k, split(k)]),
    ),
    ratioToBareHttp: round(paired('ours', 'bareHttp', 'rps'), 3),
    ratioToTypical: round(paired('ours', 'typical', 'rps'), 3),
    ratioToMinimalVerify: round(paired('ours', 'minimalVerify', 'rps'), 3),
    fileRatioToTypical: round(paired('oursFile', 'typical', 'rps'), 3),
    // The CPU goal (≤ 1.25× the floor) and the throughput goal (≥ 1.5× typical), with the bounds that hold them:
    // what the spec's steps alone cost over the floor, and how far ahead of typical the floor itself is.
    cpuRatioToFloor: round(paired('ours', 'minimalVerify', 'serverCpuUsPerRequest'), 2),
    cpuRatioToFloorRounds: runs.ours.map((x, i) =>
      round(x.serverCpuUsPerRequest / runs.minimalVerify[i].serverCpuUsPerRequest, 2),
    ),
    specMinimumCpuRatioToFloor: round(paired('specMinimum', 'minimalVerify', 'serverCpuUsPerRequest'), 2),
    cpuRatioToSpecMinimum: round(paired('ours', 'specMinimum', 'serverCpuUsPerRequest'), 2),
    specHistoryCpuRatioToFloor: round(paired('specHistory', 'minimalVerify', 'serverCpuUsPerRequest'), 2),
    cpuRatioToSpecHistory: round(paired('ours', 'specHistory', 'serverCpuUsPerRequest'), 2),
    leastBoundedCpuRatioToFloor: round(paired('leastBounded', 'minimalVerify', 'serverCpuUsPerRequest'), 2),
    cpuRatioToLeastBounded: round(paired('ours', 'leastBounded', 'serverCpuUsPerRequest'), 2),
    ourVerifierCpuRatioToFloor: round(paired('ourVerifier', 'minimalVerify', 'serverCpuUsPerRequest'), 2),
    oursNoHistoryCpuRatioToFloor: round(paired('oursNoHistory', 'minimalVerify', 'serverCpuUsPerRequest'), 2),
    fileCpuRatioToFloor: round(paired('oursFile', 'minimalVerify', 'serverCpuUsPerRequest'), 2),
    typicalCpuRatioToFloor: round(paired('typical', 'minimalVerify', 'serverCpuUsPerRequest'), 2),
    floorRatioToTypical: round(paired('minimalVerify', 'typical', 'rps'), 3),
    specMinimumRatioToTypical: round(paired('specMinimum', 'typical', 'rps'), 3),
    leastBoundedRatioToTypical: round(paired('leastBounded', 'typical', 'rps'), 3),
    minimalVerifyRatioToBareHttp: round(paired('minimalVerify', 'bareHttp', 'rps'), 3),
    bareHttpCoresBusy: round((bare.rps * bareCpu) / 1e6, 2),
    idealVerifyingRatioToBareHttp: round(bareCpu / (bareCpu + verifyUs), 3),
    // Added latency: each delivery to ours minus the request to bare http just before it, pair by pair.
    addedP50Ms: round(serial.perUrl[OURS].overFirst.p50, 3),
    addedP99Ms: round(serial.perUrl[OURS].overFirst.p99, 3),
    fileAddedP50Ms: round(serial.perUrl[OURS_FILE].overFirst.p50, 3),
    fileAddedP99Ms: round(serial.perUrl[OURS_FILE].overFirst.p99, 3),
    cryptoVerifyRs256PerSecondOneCore: round(cryptoRate, 0),
    ownWork,
  };
}

// ---------- 2. key sets ----------
async function benchKeySets() {
  const iss = issuer();
  const trust = await iss.start();
  const { jwtVerify, createRemoteJWKSet } = await import('jose');
  const tokens = tiny ? 30 : quick ? 200 : 1000;
  const body = deliveryBody(0);
  const unknown = () => iss.token(body, { kid: `unknown-${randomUUID().slice(0, 8)}` });
  const clock = new core.clock.SystemClock();
  const measure = async (failing, verify) => {
    iss.setFailing(failing);
    const before = iss.requests();
    const t0 = performance.now();
    for (let i = 0; i < tokens; i++) await verify(unknown());
    return { tokens, keySetRequests: iss.requests() - before, seconds: round((performance.now() - t0) / 1000, 2) };
  };
  // Ours: one Verifier (its per-issuer JwksCache), warmed with one genuine delivery.
  const verifier = new core.verifier.Verifier({ issuers: [trust], clock });
  await verifyDelivery(verifier, `Bearer ${iss.token(body)}`, body);
  const oursFlood = await measure(false, (t) => verifyDelivery(verifier, `Bearer ${t}`, body));
  const verifier2 = new core.verifier.Verifier({ issuers: [trust], clock });
  await verifyDelivery(verifier2, `Bearer ${iss.token(body)}`, body);
  const oursFailing = await measure(true, (t) => verifyDelivery(verifier2, `Bearer ${t}`, body));
  // The usual alternative: jose createRemoteJWKSet, warmed the same way.
  const set1 = createRemoteJWKSet(new URL(trust.jwksUrl));
  iss.setFailing(false);
  await jwtVerify(iss.token(body), set1).catch(() => {});
  const typicalFlood = await measure(false, (t) => jwtVerify(t, set1).catch(() => {}));
  const set2 = createRemoteJWKSet(new URL(trust.jwksUrl));
  iss.setFailing(false);
  await jwtVerify(iss.token(body), set2).catch(() => {});
  const typicalFailing = await measure(true, (t) => jwtVerify(t, set2).catch(() => {}));
  // Cold and failing: the key set was never fetched and answers 503 to every request.
  const verifier3 = new core.verifier.Verifier({ issuers: [trust], clock });
  const oursCold = await measure(true, (t) => verifyDelivery(verifier3, `Bearer ${t}`, body));
  const set3 = createRemoteJWKSet(new URL(trust.jwksUrl));
  const typicalCold = await measure(true, (t) => jwtVerify(t, set3).catch(() => {}));
  await iss.stop();
  return {
    note: 'key-set requests made while verifying N tokens with unknown kids, in well under a minute',
    ours: { unknownKidFlood: oursFlood, keySetFailing: oursFailing, coldAndFailing: oursCold },
    typical: { unknownKidFlood: typicalFlood, keySetFailing: typicalFailing, coldAndFailing: typicalCold },
    boundPerMinute: 5,
  };
}

// ---------- 3. tokens ----------
async function benchTokens() {
  const clock = new core.manualClock.ManualClock();
  const sandbox = new core.sandbox.Sandbox({ port: 0, clock });
  const info = await sandbox.start();
  let refreshes = 0;
  sandbox.on('request', (e) => {
    if (e.path.endsWith('/refreshIdToken')) refreshes++;
  });
  // The manager's own refresh timer is disabled (a clock whose timers never fire), so the 100 callers meet
  // an expired access token themselves, as after a laptop wakes from sleep.
  const noTimers = { now: () => clock.now(), setTimeout: () => 0, clearTimeout: () => {} };
  const tm = new core.tokens.TokenManager({
    secretScope: 'bench',
    baseUrl: info.baseUrl,
    store: new core.secrets.MemorySecretStore(),
    clock: noTimers,
  });
  const session = await tm.signIn({ username: info.username, password: info.password });
  clock.advance(tm.current.accessExpiresAt + 1000 - clock.now());
  refreshes = 0;
  const tokens = await Promise.all(Array.from({ length: 100 }, () => tm.getAccessToken()));
  const result = {
    concurrentCallers: 100,
    refreshRequests: refreshes,
    distinctTokensReturned: new Set(tokens).size,
    naiveAlternative: 100,
    signedInAs: session.username,
  };
  tm.dispose?.();
  await sandbox.stop();
  return result;
}

// ---------- 4. polling ----------
async function benchPolling() {
  const clock = new core.manualClock.ManualClock();
  let reads = 0;
  const follower = new core.follower.WorkflowFollower({
    clock,
    deadlineMs: 10 * 60_000,
    read: async () => {
      reads++;
      return {
        workflow: {
          workflowId: 'wf_bench',
          runId: 'r',
          status: 'processing',
          sessionId: 's',
          product: { service: 'A', model: 'B' },
          productType: 'A',
          productName: 'A',
        },
      };
    },
  });
  await clock.advanceAsync(10 * 60_000 + 1);
  const end = await follower.done;
  return {
    simulatedMinutes: 10,
    requests: reads,
    schedule: core.schedule.pollTimes(10 * 60_000).length,
    naiveEverySecond: 600,
    end: end.reason,
  };
}

// ---------- 5. extension ----------
function vscodeStub() {
  const disposable = { dispose() {} };
  const event = () => disposable;
  class EventEmitter {
    constructor() {
      this.listeners = new Set();
      this.event = (l) => (this.listeners.add(l), { dispose: () => this.listeners.delete(l) });
    }
    fire(v) {
      for (const l of this.listeners) l(v);
    }
    dispose() {}
  }
  const item = () => ({ show() {}, hide() {}, dispose() {} });
  const items = () => {
    const m = new Map();
    return {
      get: (id) => m.get(id),
      add: (i) => void m.set(i.id, i),
      delete: (id) => void m.delete(id),
      replace: (all) => (m.clear(), all.forEach((i) => m.set(i.id, i))),
      forEach: (f) => m.forEach((i) => f(i)),
      get size() {
        return m.size;
      },
    };
  };
  const memento = () => {
    const m = new Map();
    return {
      get: (k, d) => (m.has(k) ? m.get(k) : d),
      update: async (k, v) => void m.set(k, v),
      keys: () => [...m.keys()],
      setKeysForSync() {},
    };
  };
  const vscode = {
    EventEmitter,
    Disposable: class {
      constructor(f) {
        this.dispose = f;
      }
    },
    ThemeIcon: class {
      constructor(id, color) {
        this.id = id;
        this.color = color;
      }
    },
    ThemeColor: class {
      constructor(id) {
        this.id = id;
      }
    },
    TreeItem: class {
      constructor(label, state) {
        this.label = label;
        this.collapsibleState = state;
      }
    },
    MarkdownString: class {
      constructor(v) {
        this.value = v;
      }
    },
    Uri: {
      file: (p) => ({ fsPath: p, path: p }),
      joinPath: (u, ...p) => ({ fsPath: join(u.fsPath, ...p), path: join(u.path, ...p) }),
      from: (o) => o,
    },
    StatusBarAlignment: { Left: 1, Right: 2 },
    TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
    ProgressLocation: { Notification: 15 },
    ViewColumn: { Active: -1 },
    ConfigurationTarget: { Global: 1 },
    QuickPickItemKind: { Separator: -1 },
    // English, as VS Code gives it with no bundle for the display language: {0}, {1}… filled in.
    l10n: {
      t: (message, ...args) =>
        String(typeof message === 'object' ? message.message : message).replace(/\{(\d+)\}/g, (m, i) =>
          i < args.length ? String(args[i]) : m,
        ),
    },
    window: {
      createOutputChannel: () => ({ debug() {}, info() {}, warn() {}, error() {}, show() {}, dispose() {} }),
      createStatusBarItem: item,
      createTreeView: () => ({ visible: false, onDidChangeVisibility: event, reveal: async () => {}, dispose() {} }),
      registerWebviewPanelSerializer: () => disposable,
      showWarningMessage: async () => undefined,
      showErrorMessage: async () => undefined,
      showInformationMessage: async () => undefined,
      setStatusBarMessage: () => disposable,
    },
    tasks: { registerTaskProvider: () => disposable },
    workspace: {
      getConfiguration: () => ({ get: () => undefined, update: async () => {} }),
      onDidChangeConfiguration: event,
      onDidChangeWorkspaceFolders: event,
      createFileSystemWatcher: () => ({ onDidCreate: event, onDidChange: event, onDidDelete: event, dispose() {} }),
      fs: {
        readFile: async () => {
          throw new Error('no file');
        },
      },
      workspaceFolders: undefined,
      isTrusted: true,
      registerTextDocumentContentProvider: () => disposable,
      textDocuments: [],
      onDidOpenTextDocument: event,
      onDidChangeTextDocument: event,
      onDidCloseTextDocument: event,
      onDidGrantWorkspaceTrust: event,
    },
    languages: {
      createDiagnosticCollection: () => ({ set() {}, delete() {}, dispose() {} }),
      registerCodeLensProvider: () => disposable,
    },
    commands: { registerCommand: () => disposable, executeCommand: async () => undefined },
    TestRunProfileKind: { Run: 1 },
    tests: {
      createTestController: () => ({
        createRunProfile: () => disposable,
        createTestItem: (id, label) => ({ id, label, children: items() }),
        items: items(),
        dispose() {},
      }),
    },
    authentication: { registerAuthenticationProvider: () => disposable },
    lm: { registerTool: () => disposable, registerMcpServerDefinitionProvider: () => disposable },
    env: { clipboard: { writeText: async () => {}, readText: async () => '' } },
  };
  const context = {
    subscriptions: [],
    globalState: memento(),
    workspaceState: memento(),
    secrets: { get: async () => undefined, store: async () => {}, delete: async () => {}, onDidChange: event },
    globalStorageUri: { fsPath: mkdtempSync(join(tmpdir(), 'wfs-bench-ext-')) },
    extensionUri: { fsPath: root, path: root },
  };
  return { vscode, context };
}

async function benchExtension() {
  const file = join(root, 'dist', 'extension.js');
  const size = statSync(file).size;
  const { vscode, context } = vscodeStub();
  const original = Module._load;
  Module._load = function (request, ...rest) {
    return request === 'vscode' ? vscode : original.call(this, request, ...rest);
  };
  try {
    const t0 = performance.now();
    const ext = require(file);
    const t1 = performance.now();
    const exported = ext.activate(context);
    const t2 = performance.now();
    const subscriptions = context.subscriptions.length;
    for (const d of context.subscriptions) d.dispose();
    const realVsCode = quick
      ? { skipped: 'quick run' }
      : await measureRealVsCode(root).catch((err) => ({ skipped: String(err?.message ?? err) }));
    return {
      distExtensionJsBytes: size,
      moduleLoadMs: round(t1 - t0, 1),
      activateMs: round(t2 - t1, 1),
      subscriptions,
      exportsNothing: exported === undefined,
      realVsCode,
    };
  } finally {
    Module._load = original;
  }
}

// ---------- 6. panel ----------
async function benchPanel() {
  const n = quick ? 2000 : 10_000;
  const { filterRows } = require(join(root, 'out', 'src', 'extension', 'panel', 'deliveryView.js'));
  const records = [];
  for (let i = 0; i < n; i++) {
    const body = deliveryBody(i);
    records.push({
      id: randomUUID(),
      receivedAt: new Date(Date.now() - i * 1000).toISOString(),
      method: 'POST',
      path: '/webhooks',
      headers: { 'content-type': 'application/json', authorization: 'Bearer <redacted, 800 characters>' },
      body: {
        size: body.length,
        sha256: createHash('sha256').update(body).digest('hex'),
        kept: body.length,
        utf8: true,
      },
      checks: [],
      verified: i % 10 !== 0,
      status: i % 10 ? 200 : 403,
      durationMs: 1.2,
      duplicate: false,
      topic: 'workflow/completed',
      subTopic: 'event:workflow/completed',
      triggeredAt: '2026-11-22T10:00:00.1234567Z',
      runId: `wfrun_${i}`,
    });
  }
  const heap0 = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  const rows = await filterRows(records, {}, async () => undefined);
  const hostRowsMs = performance.now() - t0;
  const { launchBrowser } = await import(join(root, 'test', 'vscode', 'harness', 'browser.mjs'));
  const browser = await launchBrowser();
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    const css = readFileSync(join(root, 'media', 'panel', 'panel.css'), 'utf8');
    const { panelHtml } = require(join(root, 'out', 'src', 'extension', 'panel', 'panelHtml.js'));
    const shell = panelHtml({
      cspSource: "'self'",
      nonce: 'bench',
      domUri: 'about:blank',
      scriptUri: 'about:blank',
      styleUri: 'about:blank',
    })
      .replace(/<meta http-equiv[^>]*>/, '')
      .replace(/<link[^>]*>/, `<style>${css}</style>`)
      .replace(/<script[^>]*><\/script>/g, '');
    await page.setContent(shell);
    await page.evaluate(() => {
      window.__posted = [];
      window.acquireVsCodeApi = () => ({
        postMessage: (m) => window.__posted.push(m),
        getState: () => undefined,
        setState: () => {},
      });
    });
    await page.addScriptTag({ content: readFileSync(join(root, 'media', 'panel', 'dom.js'), 'utf8') });
    await page.addScriptTag({ content: readFileSync(join(root, 'media', 'panel', 'panel.js'), 'utf8') });
    const ms = await page.evaluate(async (rows) => {
      const t0 = performance.now();
      window.postMessage({ type: 'rows', rows, total: rows.length }, '*');
      await new Promise((r) => {
        const shown = `${rows.length} shown of ${rows.length}`;
        const check = () =>
          document.getElementById('summary').textContent === shown
            ? requestAnimationFrame(() => r())
            : setTimeout(check, 0);
        check();
      });
      return {
        firstScreenMs: performance.now() - t0,
        domRows: document.querySelectorAll('.row').length,
        heapMB: performance.memory ? performance.memory.usedJSHeapSize / 1e6 : null,
      };
    }, rows);
    return {
      deliveries: n,
      hostRowsMs: round(hostRowsMs, 1),
      webviewFirstScreenMs: round(ms.firstScreenMs, 1),
      domRowsRendered: ms.domRows,
      webviewHeapMB: ms.heapMB && round(ms.heapMB, 1),
      hostHeapGrowthMB: round((process.memoryUsage().heapUsed - heap0) / 1e6, 1),
    };
  } finally {
    await browser.close();
  }
}

// ---------- 7. delivery history ----------
async function benchHistoryRun() {
  const iss = issuer();
  await iss.start();
  try {
    return await benchHistory({ root, issuer: iss, tiny, quick, log });
  } finally {
    await iss.stop();
  }
}

// ---------- 8. the walk of one delivery and what records keep (figures, no goal) ----------
/** The functions and files one verified delivery walks through in the receiver (receiverWalk.mjs). */
function benchWalk() {
  const [walk] = JSON.parse(
    execFileSync(process.execPath, [join(root, 'bench', 'receiverWalk.mjs')], { encoding: 'utf8' }),
  );
  return { stops: walk.stops, returns: walk.returns, files: walk.files, inReceiver: walk.inReceiver };
}

/** Copies of the values that repeat between deliveries, in the heap of a process that kept them (recordStrings.mjs). */
function benchStrings() {
  const records = tiny ? 8 : 48;
  const args = [join(root, 'bench', 'recordStrings.mjs'), String(records)];
  return JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8' }));
}

// ---------- report ----------
const machine = {
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: cpus().length,
  memoryGiB: round(totalmem() / 2 ** 30, 1),
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
  date: new Date().toISOString(),
  quick,
};
const results = { machine };
for (const [name, fn, alias] of [
  ['receiver', benchReceiver],
  ['keySets', benchKeySets],
  ['tokens', benchTokens],
  ['polling', benchPolling],
  ['extension', benchExtension],
  ['panel', benchPanel],
  ['history', benchHistoryRun],
  ['cliStartup', async () => measureCliStartup({ runs: tiny ? 2 : 20 }), 'cli-startup'],
  ['walk', async () => benchWalk()],
  ['recordStrings', async () => benchStrings(), 'strings'],
]) {
  const key = alias ?? name.toLowerCase();
  if (!want(key)) continue;
  log(`bench: ${name}…`);
  try {
    results[name] = await fn();
  } catch (err) {
    results[name] = { error: String(err?.message ?? err) };
    log(`bench: ${name} failed: ${err?.stack ?? err}`);
  }
}

function markdown(r) {
  const L = [
    `Measured on ${r.machine.cpu}, ${r.machine.cores} cores, ${r.machine.memoryGiB} GiB, Node ${r.machine.node} (${r.machine.date.slice(0, 10)}${r.machine.quick ? ', quick run' : ''})${r.receiver?.pinned ? `; during the receiver rounds the receivers ran on CPU ${r.receiver.pinned.receivers} and the load generator on CPU ${r.receiver.pinned.loadGenerator}` : '; the load generator shares the machine'}.`,
    '',
    '| benchmark | result | |',
    '|---|---|---|',
  ];
  const x = r.receiver;
  if (x && !x.error) {
    const row = (name, v) =>
      `| ${name} | ${v.rps}/s (rounds: ${v.rounds.join(', ')}; p50 ${v.p50Ms} ms, p99 ${v.p99Ms} ms; CPU per request: receiver ${v.serverCpuUsPerRequest} µs, load generator ${v.loadgenCpuUsPerRequest} µs) | ${v.serialP50Ms} / ${v.serialP99Ms} ms |`;
    L.push(
      `| **receiver** (${x.rounds} paired rounds of ${x.requests} deliveries, ${x.concurrency} in flight, after a warm-up round; each figure is the median round, each ratio the median of the round-by-round ratios; latency one at a time, all alternating) | throughput | latency p50 / p99 |`,
    );
    L.push(row('ours: the seven steps, dedupe, history in memory', x.ours));
    L.push(row("ours with the history file (the extension's default): each record written before its 2xx", x.oursFile));
    L.push(row('bare node:http answering 200 (transport bound)', x.bareHttp));
    L.push(row('RS256 verify + body hash only (verification floor)', x.minimalVerify));
    L.push(row('typical: jose jwtVerify + createRemoteJWKSet', x.typical));
    L.push(row("the spec's seven steps alone: no record, no history (spec minimum)", x.specMinimum));
    L.push(
      row(
        'the spec minimum with the least history: Host checked, each request kept in memory (id, time, redacted headers, status, body), bounded in bytes',
        x.specHistory,
      ),
    );
    L.push(
      row(
        'the least history bounded as ours must be (#15): also steps 1–5 before the body, refused bodies hashed, the body cap, the bytes in flight, one body per token, copies in flight',
        x.leastBounded,
      ),
    );
    L.push(row('our Verifier alone behind the least handler: no Receiver, no history', x.ourVerifier));
    L.push(row('ours without its history: the Receiver and our Verifier, keeping nothing', x.oursNoHistory));
    L.push(
      `| **ours ÷ bare http; ÷ typical; ÷ floor** | **${x.ratioToBareHttp}×; ${x.ratioToTypical}×; ${x.ratioToMinimalVerify}×** (goal ≥ 0.6× bare; the floor itself is ${x.minimalVerifyRatioToBareHttp}×); with the history file: ${x.fileRatioToTypical}× typical | |`,
    );
    L.push(
      `| **CPU per delivery: ours ÷ floor** (the goal, against the bounded least history, is the guard below) | **${x.cpuRatioToFloor}×** (rounds: ${x.cpuRatioToFloorRounds.join(', ')}): the spec minimum alone is ${x.specMinimumCpuRatioToFloor}× the floor, typical ${x.typicalCpuRatioToFloor}×; the spec minimum with the least history ${x.specHistoryCpuRatioToFloor}× (what keeping a history at all adds); ours is ${x.cpuRatioToSpecMinimum}× the spec minimum (all it does beyond the seven steps: Host, path and size checks, the record, the history) and ${x.cpuRatioToSpecHistory}× the spec minimum with the least history; the least history bounded as ours must be ${x.leastBoundedCpuRatioToFloor}× the floor, and ours ${x.cpuRatioToLeastBounded}× it; with the history file ${x.fileCpuRatioToFloor}× the floor. Ours taken apart: our Verifier alone ${x.ourVerifierCpuRatioToFloor}×, with the Receiver around it ${x.oursNoHistoryCpuRatioToFloor}×, with the history ${x.cpuRatioToFloor}× | |`,
    );
    const c = x.cpuSplit;
    const part = (v) => `${v.mainOutsideGcUs} + ${v.gcPauseUs} + ${v.otherThreadsUs ?? '?'} = ${v.cpuUs}`;
    L.push(
      `| where the CPU per delivery goes (each receiver's median round by CPU; µs: main thread outside GC pauses + GC pauses + the other threads (V8's helpers, which collect garbage in parallel and compile, and libuv's pool) = all${c.ours.otherThreadsUs === null ? '; the other threads are not counted off Linux' : ''}) | floor ${part(c.minimalVerify)}; spec minimum ${part(c.specMinimum)}; with the least history ${part(c.specHistory)}; bounded ${part(c.leastBounded)}; our Verifier alone ${part(c.ourVerifier)}; ours without its history ${part(c.oursNoHistory)}; **ours ${part(c.ours)}**; with the history file ${part(c.oursFile)}; typical ${part(c.typical)}. Ours over the floor: ${round(c.ours.cpuUs - c.minimalVerify.cpuUs, 1)} µs: ${round(c.ours.mainOutsideGcUs - c.minimalVerify.mainOutsideGcUs, 1)} on the main thread outside GC, ${round(c.ours.gcPauseUs - c.minimalVerify.gcPauseUs, 1)} in GC pauses, ${c.ours.otherThreadsUs === null ? '?' : round(c.ours.otherThreadsUs - c.minimalVerify.otherThreadsUs, 1)} on the other threads | |`,
    );
    const o = x.ownWork;
    L.push(
      `| the Receiver's own JavaScript per delivery, without sockets (${o.deliveries} deliveries driven by hand through its handler, ${o.rounds} paired rounds) | ${o.receiverUs} µs (ours through its handler ${o.oursUs} µs; our Verifier behind the least handler ${o.verifierAloneUs} µs) | |`,
    );
    // The bound is the spec minimum: the floor skips the claims, so a receiver that follows the spec cannot be it.
    const bound =
      x.specMinimumRatioToTypical < 1.5
        ? `, so no receiver that follows the spec reaches 1.5× on this machine in this run`
        : '';
    L.push(
      `| **throughput: ours ÷ typical** (goal ≥ 1.5×) | **${x.ratioToTypical}×**: the spec minimum, which does the seven steps and nothing more, is ${x.specMinimumRatioToTypical}× typical${bound}; the least history bounded as ours must be ${x.leastBoundedRatioToTypical}×; the floor, which skips all but the signature and the body hash, ${x.floorRatioToTypical}× | |`,
    );
    L.push(
      `| ideal verifying receiver ÷ bare http (bare http's CPU per request + one RS256 verify, all cores busy; bare http kept ${x.bareHttpCoresBusy} of ${r.machine.cores} cores busy) | ${x.idealVerifyingRatioToBareHttp}× | |`,
    );
    L.push(
      `| added latency over bare http, one at a time (each delivery to ours minus the request to bare http just before it) | p50 ${x.addedP50Ms} ms, p99 ${x.addedP99Ms} ms (goal p99 < 1 ms); our handler's own time: p50 ${x.ours.handlerP50Ms} ms, p99 ${x.ours.handlerP99Ms} ms; with the history file: p50 ${x.fileAddedP50Ms} ms, p99 ${x.fileAddedP99Ms} ms | |`,
    );
    L.push(`| RS256 verify, one core (crypto bound) | ${x.cryptoVerifyRs256PerSecondOneCore}/s | |`);
  }
  const k = r.keySets;
  if (k && !k.error)
    L.push(
      `| key-set requests, ${k.ours.unknownKidFlood.tokens} unknown kids: ours / typical | ${k.ours.unknownKidFlood.keySetRequests} / ${k.typical.unknownKidFlood.keySetRequests}; with the key set failing: ${k.ours.keySetFailing.keySetRequests} / ${k.typical.keySetFailing.keySetRequests}; never fetched and failing: ${k.ours.coldAndFailing.keySetRequests} / ${k.typical.coldAndFailing.keySetRequests} (bound: 5 per minute) | |`,
    );
  const t = r.tokens;
  if (t && !t.error)
    L.push(
      `| refresh requests, 100 concurrent calls at expiry | ${t.refreshRequests} (naive: ${t.naiveAlternative}) | |`,
    );
  const p = r.polling;
  if (p && !p.error)
    L.push(
      `| reads for one workflow over 10 simulated minutes | ${p.requests} (schedule: ${p.schedule}; every second: ${p.naiveEverySecond}) | |`,
    );
  const e = r.extension;
  if (e && !e.error) {
    L.push(
      `| dist/extension.js; load; activate() (stubbed host) | ${round(e.distExtensionJsBytes / 1024, 0)} KiB; ${e.moduleLoadMs} ms; ${e.activateMs} ms | |`,
    );
    L.push(
      e.realVsCode.skipped
        ? `| real VS Code activation | not measured: ${e.realVsCode.skipped} | |`
        : `| real VS Code (code-server): click on the icon → activated | ${e.realVsCode.clickToActivatedMs} ms (window open → icon shown: ${e.realVsCode.windowOpenToIconMs} ms) | |`,
    );
  }
  const h = r.history;
  if (h && !h.error) {
    L.push(`| **history** (\`wfs listen --log\`, default budgets: 64 MiB memory, 256 MiB disk) | | |`);
    L.push(
      `| RSS after ${h.deliveries} deliveries of ${round(h.bodyBytes / 1048576, 2)} MiB (${h.acknowledged} answered 200; ${h.deliveriesPerSecond}/s, 4 in flight) | ${h.rssAfterMB} MB (before: ${h.rssBeforeMB} MB; peak ${h.peakRssMB} MB); file ${h.historyFileMB} MB | |`,
    );
    L.push(
      `| restart on that history | ready in ${h.restartReadyMs} ms, ${h.restartLoaded} records loaded (${h.restartSkipped} skipped), RSS ${h.rssAfterRestartMB} MB | |`,
    );
    const w = h.writeBeforeAck;
    L.push(
      `| writing each record before acknowledging it (${w.pairs} deliveries one at a time, with and without --log, alternating) | added p50 ${w.addedP50Ms} ms, p99 ${w.addedP99Ms} ms | with: ${w.withLogP50Ms} / ${w.withLogP99Ms} ms; without: ${w.withoutLogP50Ms} / ${w.withoutLogP99Ms} ms |`,
    );
  }
  const w = r.panel;
  if (w && !w.error)
    L.push(
      `| panel first screen, ${w.deliveries} deliveries (headless Chromium) | ${w.webviewFirstScreenMs} ms (${w.domRowsRendered} rows in the DOM; rows built in ${w.hostRowsMs} ms) | |`,
    );
  const c = r.cliStartup;
  if (c && !c.error) {
    const verdict = (held) => (held === undefined ? '' : held ? 'holds' : '**does not hold**');
    const judged = c.tooLoaded ? `too loaded to judge: ${c.tooLoaded}` : 'idle enough to judge';
    L.push(
      `| \`wfs --help\` (\`${c.cli}\`) against \`node -e 0\` (${c.runs} pairs, A B A B; the median of the pairs' ratios; load average before ${c.loadBefore ?? '?'}, after ${c.loadAfter ?? '?'}: ${judged}) | ${c.helpRatio}× (goal ≤ ${c.goals.helpRatio}×): ${c.helpMs} ms; \`node -e 0\` ${c.nodeMs} ms (idle: ${c.idleNodeMs} ms) | ${verdict(c.holds?.help)} |`,
    );
    L.push(
      `| \`wfs mcp\` (stdio, its own sandbox and receiver) to its ready line (${c.runs} runs, each after a \`node -e 0\`) | ${c.mcpReadyMs} ms (goal ≤ ${c.goals.mcpReadyMs} ms); \`node -e 0\` beside it ${c.nodeMsBesideMcp} ms | ${verdict(c.holds?.mcp)} |`,
    );
  }
  const k2 = r.walk;
  if (k2 && !k2.error)
    L.push(
      `| the walk of one verified delivery through the receiver (\`bench/receiverWalk.mjs\`: key cached, no forward, history in memory) | ${k2.stops} stops (functions of ours entered), ${k2.returns} returns (a file entered again after leaving it), ${k2.files} files; ${k2.inReceiver} stops in Receiver.ts | |`,
    );
  const s = r.recordStrings;
  if (s && !s.error)
    L.push(
      `| copies in the heap of values that repeat, ${s.kept} records kept (\`bench/recordStrings.mjs\`) | ${Object.entries(
        s.copies,
      )
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')}; bodies kept as text: ${s.bodiesAsText} of ${s.kept} | |`,
    );
  return L.join('\n') + '\n';
}

writeFileSync(join(outDir, 'results.json'), JSON.stringify(results, null, 2) + '\n');
// The guard's section (bench/bound.mjs --guard --write) is measured apart: kept as the file held it.
const guardSection = keptGuard(join(outDir, 'results.md'));
writeFileSync(join(outDir, 'results.md'), markdown(results) + (guardSection ? `\n${guardSection}` : ''));
process.stdout.write(markdown(results));
// A section that failed part-way may leave its servers listening: the run ends here either way, and says whether
// every section ran.
const failed = Object.keys(results).filter((k) => results[k]?.error !== undefined);
if (failed.length) log(`bench: failed: ${failed.join(', ')}`);
process.exit(failed.length ? 1 : 0);

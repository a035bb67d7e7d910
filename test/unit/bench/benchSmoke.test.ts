// The benchmark script still runs and reports every figure README quotes. It measures nothing here (tiny
// counts) and asserts no timing: only that the report has its fields and the counts that are exact.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

describe('npm run bench (smoke, tiny counts)', function () {
  this.timeout(120_000);
  it('writes results.json with the receiver ratios and the exact counts, and the Markdown table', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wfs-bench-smoke-'));
    execFileSync(
      process.execPath,
      ['bench/run.mjs', '--tiny', '--only', 'receiver,keysets,tokens,polling,extension,history', '--out', dir],
      { stdio: ['ignore', 'ignore', 'pipe'], timeout: 110_000 },
    );
    const r = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
    for (const k of ['cpu', 'cores', 'node']) assert.ok(r.machine[k], `machine.${k}`);
    assert.ok(Number.isFinite(r.receiver.ratioToBareHttp));
    assert.ok(Number.isFinite(r.receiver.ratioToTypical));
    assert.equal(r.receiver.ours.statuses['200'], 100, 'every delivery verified and answered 200');
    assert.equal(
      r.receiver.ours.delivered,
      226,
      'ours received its share of both runs: 200 under load (a warm-up round and one measured), 26 of the 258 alternating among ten one at a time (warm-ups included)',
    );
    assert.equal(r.receiver.ours.verified, 226, 'every one of them verified');
    assert.equal(r.receiver.specMinimum.statuses['200'], 100, 'the spec minimum verifies every delivery too');
    assert.equal(r.receiver.oursFile.statuses['200'], 100, 'so does ours with the history file');
    assert.equal(
      r.receiver.specHistory.statuses['200'],
      100,
      'and the spec minimum with the least history (its Host check lets the load through)',
    );
    assert.equal(r.receiver.leastBounded.statuses['200'], 100, 'and the least history bounded as ours must be');
    assert.equal(
      r.receiver.ourVerifier.statuses['200'],
      100,
      'our Verifier alone verifies every delivery (the key fetch included)',
    );
    assert.equal(r.receiver.oursNoHistory.statuses['200'], 100, 'and so does ours without its history');
    for (const k of [
      'cpuRatioToFloor',
      'specMinimumCpuRatioToFloor',
      'cpuRatioToSpecMinimum',
      'floorRatioToTypical',
      'fileCpuRatioToFloor',
      'typicalCpuRatioToFloor',
      'fileAddedP99Ms',
      'specHistoryCpuRatioToFloor',
      'cpuRatioToSpecHistory',
      'ourVerifierCpuRatioToFloor',
      'oursNoHistoryCpuRatioToFloor',
      'leastBoundedCpuRatioToFloor',
      'cpuRatioToLeastBounded',
      'leastBoundedRatioToTypical',
    ] as const)
      assert.ok(Number.isFinite(r.receiver[k]) && r.receiver[k] > 0, k);
    assert.equal(r.receiver.ours.rounds.length, 1);
    assert.ok(Number.isFinite(r.receiver.ours.handlerP99Ms));
    assert.ok(Number.isFinite(r.receiver.idealVerifyingRatioToBareHttp));
    for (const name of [
      'ours',
      'oursFile',
      'bareHttp',
      'minimalVerify',
      'typical',
      'specMinimum',
      'specHistory',
      'leastBounded',
      'ourVerifier',
      'oursNoHistory',
    ])
      for (const k of ['serverCpuUsPerRequest', 'loadgenCpuUsPerRequest', 'serialP99Ms'] as const)
        assert.ok(Number.isFinite(r.receiver[name][k]), `${name}.${k}`);
    assert.ok(Number.isFinite(r.receiver.addedP99Ms), 'added latency from the pairwise differences');
    const own = r.receiver.ownWork;
    assert.deepEqual(
      [own.deliveries, own.rounds],
      [100, 2],
      "the Receiver's own work: every delivery driven through its handler (all answered 200, or the bench throws)",
    );
    assert.ok(own.oursUs > 0 && own.verifierAloneUs > 0 && Number.isFinite(own.receiverUs), JSON.stringify(own));
    // Where each receiver's CPU went: the main thread outside GC, GC pauses, the other threads (Linux), adding up.
    for (const name of [
      'minimalVerify',
      'specMinimum',
      'specHistory',
      'leastBounded',
      'ourVerifier',
      'oursNoHistory',
      'ours',
      'oursFile',
      'typical',
    ]) {
      const c = r.receiver.cpuSplit[name];
      assert.ok(c.cpuUs > 0 && c.gcPauseUs >= 0, `${name}: ${JSON.stringify(c)}`);
      if (process.platform === 'linux') assert.ok(c.otherThreadsUs >= 0, `${name}: the other threads counted`);
      assert.ok(
        Math.abs(c.mainOutsideGcUs + c.gcPauseUs + (c.otherThreadsUs ?? 0) - c.cpuUs) < 0.2,
        `${name}: the parts add up (${JSON.stringify(c)})`,
      );
    }
    assert.ok(r.keySets.ours.unknownKidFlood.keySetRequests <= 5, 'the key-set budget holds');
    assert.ok(r.keySets.ours.coldAndFailing.keySetRequests <= 5);
    assert.equal(r.tokens.refreshRequests, 1);
    assert.equal(r.polling.requests, r.polling.schedule);
    // The shipped bundle activates on a stubbed host, registers its disposables, and exports nothing a peer could use.
    assert.equal(r.extension.error, undefined, `the extension bench ran: ${r.extension.error}`);
    assert.ok(
      Number.isFinite(r.extension.activateMs) && r.extension.subscriptions > 20,
      'activate() registered its views, commands and servers',
    );
    assert.equal(
      r.extension.exportsNothing,
      true,
      'activate() returns nothing: no services, no SecretStorage for other extensions',
    );
    const h = r.history;
    assert.equal(h.acknowledged, h.deliveries, 'every large delivery answered 200 by wfs listen --log');
    assert.equal(h.restartLoaded, h.deliveries, 'all of them read back at the restart');
    assert.equal(h.restartSkipped, 0);
    for (const k of [
      'rssAfterMB',
      'peakRssMB',
      'historyFileMB',
      'restartReadyMs',
      'rssAfterRestartMB',
      'deliveriesPerSecond',
    ] as const)
      assert.ok(Number.isFinite(h[k]) && h[k] > 0, `history.${k} = ${h[k]}`);
    for (const k of ['addedP50Ms', 'addedP99Ms', 'withLogP99Ms'] as const)
      assert.ok(Number.isFinite(h.writeBeforeAck[k]), `writeBeforeAck.${k}`);
    const md = readFileSync(join(dir, 'results.md'), 'utf8');
    assert.match(md, /ours ÷ bare http/);
    assert.match(md, /CPU per delivery: ours ÷ floor/);
    assert.match(md, /Ours taken apart: our Verifier alone [\d.]+×, with the Receiver around it [\d.]+×/);
    // Where the receivers can have a CPU of their own (Linux, taskset, two CPUs), they do, and the report says so.
    const canPin =
      process.platform === 'linux' &&
      availableParallelism() >= 2 &&
      spawnSync('taskset', ['-c', '-p', String(process.pid)]).status === 0;
    if (canPin) {
      assert.ok(
        r.receiver.pinned && r.receiver.pinned.receivers !== r.receiver.pinned.loadGenerator,
        `pinned: ${JSON.stringify(r.receiver.pinned)}`,
      );
      assert.match(md, /the receivers ran on CPU \d+ and the load generator on CPU \d+/);
    } else assert.match(md, /the load generator shares the machine/);
    assert.match(
      md,
      /the Receiver's own JavaScript per delivery, without sockets \(100 deliveries driven by hand through its handler, 2 paired rounds\) \| -?[\d.]+ µs/,
    );
    assert.match(md, /restart on that history/);
    assert.match(
      md,
      /where the CPU per delivery goes .*\*\*ours -?[\d.]+ \+ [\d.]+ \+ [\d.?]+ = [\d.]+\*\*.* Ours over the floor: -?[\d.]+ µs: -?[\d.]+ on the main thread outside GC, -?[\d.]+ in GC pauses, -?[\d.?]+ on the other threads/,
    );
  });
});

describe('npm run bench: the walk and the heap strings, reported (smoke, tiny counts)', function () {
  this.timeout(180_000);
  it('reports the walk of one delivery and the copies records keep, and keeps the guard section bound.mjs wrote', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wfs-bench-figures-'));
    const guard = (await import(pathToFileURL(join(process.cwd(), 'bench', 'guard.mjs')).href)) as {
      guardVerdict(ratio: string, latency: object): object;
      guardMarkdown(report: object, where: string, note?: string): string;
      writeGuard(file: string, section: string): void;
    };
    const report = {
      rounds: 30,
      together: true,
      cpuUsPerDelivery: { leastBounded: 200, ours: 206 },
      guard: guard.guardVerdict('1.030 (1.020–1.040)', {
        rounds: 20,
        deliveriesPerBlock: 1333,
        addedP99Ms: '0.120 (-0.050–0.310)',
        machineP99Ms: '0.010 (-0.100–0.080)',
        oursP50Ms: 0.24,
        bareP50Ms: 0.15,
        bareP99Ms: 1.6,
      }),
    };
    const section = guard.guardMarkdown(report, 'on a test machine');
    guard.writeGuard(join(dir, 'results.md'), section);
    execFileSync(process.execPath, ['bench/run.mjs', '--tiny', '--only', 'walk,strings', '--out', dir], {
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 170_000,
    });
    const r = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
    for (const k of ['stops', 'returns', 'files', 'inReceiver'])
      assert.ok(Number.isInteger(r.walk[k]) && r.walk[k] > 0, `walk.${k} = ${r.walk[k]}`);
    assert.equal(r.recordStrings.kept, 8, 'every delivery kept');
    for (const [k, n] of Object.entries(r.recordStrings.copies))
      assert.ok(Number.isInteger(n) && (n as number) >= 1, `${k} is in the heap`);
    const md = readFileSync(join(dir, 'results.md'), 'utf8');
    assert.match(md, /the walk of one verified delivery through the receiver .* \d+ stops/);
    assert.match(md, /copies in the heap of values that repeat, 8 records kept/);
    assert.ok(md.endsWith(section), 'the guard section is kept as bound.mjs wrote it');
    assert.match(section, /\| 1\.030× \(95% interval 1\.020–1\.040; .*\| holds \|/);
    assert.match(
      section,
      /\| 0\.12 ms \(-0\.05–0\.31\), median of 20 rounds, each a block of 1333 deliveries to each receiver \| holds \|/,
    );
    assert.match(section, /second bare http's p99 − bare http's p99, in the same rounds \| 0\.01 ms \(-0\.1–0\.08\)/);
    const over = guard.guardVerdict('1.030 (1.020–1.040)', { addedP99Ms: '0.800 (0.600–1.100)' }) as {
      latency: { holds: boolean };
    };
    assert.equal(over.latency.holds, false, "the interval's upper end over 1 ms does not hold");
  });
});

describe('bench/bound.mjs (smoke, tiny counts)', function () {
  this.timeout(60_000);
  it("runs paired rounds of the receivers named (ours from another build too) and reports each one's CPU and every ratio with its interval", () => {
    // --compare: ours from another build (here the same one) as a receiver of its own.
    const out = execFileSync(
      process.execPath,
      ['bench/bound.mjs', '2', 'floor,leastBounded,ours,compared', '--compare', 'out/bench/receiverCore.js', '--tiny'],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 55_000 },
    );
    const report = JSON.parse(out);
    assert.equal(report.rounds, 2);
    assert.deepEqual(Object.keys(report.cpuUsPerDelivery), ['floor', 'leastBounded', 'ours', 'compared']);
    for (const us of Object.values(report.cpuUsPerDelivery)) assert.ok(Number.isFinite(us) && (us as number) > 0);
    assert.deepEqual(Object.keys(report.ratios), [
      'leastBounded ÷ floor',
      'ours ÷ floor',
      'ours ÷ leastBounded',
      'compared ÷ floor',
      'compared ÷ leastBounded',
      'compared ÷ ours',
    ]);
    for (const r of Object.values(report.ratios)) assert.match(r as string, /^\d+\.\d{3} \(\d+\.\d{3}–\d+\.\d{3}\)$/);
    // Where the CPU goes: each receiver's main thread outside GC, GC pauses and other threads, adding up to its CPU;
    // then each pair's differences, part by part, with intervals.
    const parts = report.partsUsPerDelivery as Record<string, { main: number; gc: number; others: number }>;
    assert.deepEqual(Object.keys(parts), ['floor', 'leastBounded', 'ours', 'compared']);
    for (const p of Object.values(parts)) {
      assert.ok(p.main > 0 && p.gc >= 0 && p.others >= 0, JSON.stringify(p));
    }
    const differences = report.partDifferencesUs as Record<string, Record<string, string>>;
    assert.deepEqual(
      Object.keys(differences),
      Object.keys(report.ratios).map((k) => k.replace('÷', '−')),
    );
    for (const d of Object.values(differences)) {
      assert.deepEqual(Object.keys(d), ['main', 'gc', 'others']);
      for (const v of Object.values(d)) assert.match(v, /^-?\d+\.\d \(-?\d+\.\d–-?\d+\.\d\)$/);
    }
    assert.equal(report.loadGenerator, 'loadgen.mjs');
  });

  it('--raw: the raw-socket load generator, each delivery answered 200 and counted', () => {
    // A round rejects unless every delivery was answered 200: a miscounted or misparsed answer fails the run.
    const out = execFileSync(process.execPath, ['bench/bound.mjs', '2', 'floor,leastBounded,ours', '--tiny', '--raw'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 55_000,
    });
    const report = JSON.parse(out);
    assert.equal(report.loadGenerator, 'rawLoadgen.mjs');
    assert.deepEqual(Object.keys(report.cpuUsPerDelivery), ['floor', 'leastBounded', 'ours']);
    for (const us of Object.values(report.cpuUsPerDelivery)) assert.ok(Number.isFinite(us) && (us as number) > 0);
  });

  it('--together: each receiver in its own process, all sent the same deliveries at once, each answered 200', () => {
    // A round rejects unless each receiver answered all of its deliveries 200, and the processes must exit after.
    // --guard: then the latency ours adds, one delivery at a time, and the verdict (judged only outside --tiny).
    const out = execFileSync(
      process.execPath,
      ['bench/bound.mjs', '2', 'leastBounded,ours', '--tiny', '--together', '--guard'],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 55_000 },
    );
    const report = JSON.parse(out);
    assert.equal(report.together, true);
    assert.equal(report.loadGenerator, 'rawLoadgen.mjs');
    assert.deepEqual(Object.keys(report.cpuUsPerDelivery), ['leastBounded', 'ours']);
    for (const us of Object.values(report.cpuUsPerDelivery)) assert.ok(Number.isFinite(us) && (us as number) > 0);
    assert.match(report.ratios['ours ÷ leastBounded'], /^\d\.\d{3} \(\d\.\d{3}–\d\.\d{3}\)$/);
    const { cpu, latency } = report.guard;
    assert.equal(cpu.goal, 'ours ÷ leastBounded ≤ 1.15');
    assert.ok(cpu.low <= cpu.median && cpu.median <= cpu.high, JSON.stringify(cpu));
    assert.equal(typeof cpu.holds, 'boolean');
    assert.equal(latency.rounds, 2);
    assert.equal(
      latency.deliveriesPerBlock,
      25,
      'a block of 25 deliveries to each of bare http, a second bare http and ours, after one to settle',
    );
    const { added } = latency;
    assert.ok(added.low <= added.median && added.median <= added.high, JSON.stringify(latency));
    assert.equal(typeof latency.holds, 'boolean');
    // Milliseconds, three decimals: a loaded machine's stalls reach tens of them.
    assert.match(latency.machineP99Ms, /^-?\d+\.\d{3} \(-?\d+\.\d{3}–-?\d+\.\d{3}\)$/, 'the machine alone');
    assert.ok(Number.isFinite(latency.bareP99Ms), "bare http's own latency, to tell the machine's stalls from ours");
  });
});

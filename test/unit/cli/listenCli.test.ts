// `wfs listen` in-process: ready line, verified deliveries from `wfs test-webhook`, tunnel lines, usage errors.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../src/cli/main';
import type { CliIO } from '../../../src/cli/output';
import { startSandbox, type SandboxFixture } from '../helpers/sandboxFixture';
import { LocaltunnelServer } from '../helpers/localtunnelServer';
import { untilTrue } from '../helpers/eventLoop';
import { testWebhookArgs } from '../../process/helpers/commandArgs';

describe('wfs listen', () => {
  let f: SandboxFixture;
  let lines: Record<string, any>[];
  let stop: (() => void) | undefined;
  let trustFile: string;
  const io = (): CliIO => ({
    emit: (l) => lines.push(l),
    env: { WFS_BASE_URL: f.info.baseUrl, WFS_USERNAME: f.info.username, WFS_PASSWORD: f.info.password },
    clock: f.clock,
    print: () => undefined,
    printError: () => undefined,
    readStdin: () => '',
    onStop: (l) => {
      stop = l;
      return () => undefined;
    },
  });
  const until = (cond: () => boolean) => untilTrue(cond, () => `not reached; lines: ${JSON.stringify(lines)}`, 50_000);

  beforeEach(async () => {
    f = await startSandbox();
    lines = [];
    stop = undefined;
    trustFile = join(mkdtempSync(join(tmpdir(), 'wfs-trust-')), 'trust.json');
    writeFileSync(
      trustFile,
      JSON.stringify([{ issuer: f.info.issuer, jwksUrl: f.info.jwksUrl, audience: f.info.audience }]),
    );
  });
  afterEach(() => f.stop());

  it('pointed at the sandbox issuer, shows a verified delivery sent by `wfs test-webhook`, end to end', async () => {
    const listening = main(['listen', '--trust-file', trustFile, '--no-tunnel', '--port', '0'], io());
    await until(() => lines.some((l) => l.event === 'ready'));
    const ready = lines.find((l) => l.event === 'ready')!;
    assert.match(ready.url, /^http:\/\/127\.0\.0\.1:\d+\/webhooks$/);
    assert.equal(ready.publicUrl, null);
    const sent = await main(testWebhookArgs(ready.url), io());
    assert.equal(sent, 0);
    const delivery = lines.find((l) => l.event === 'delivery')!;
    assert.deepEqual(
      [delivery.status, delivery.verified, delivery.duplicate, delivery.topic],
      [200, true, false, 'workflow/completed'],
    );
    assert.equal(delivery.checks.length, 7);
    stop!();
    assert.equal(await listening, 0);
    assert.equal(lines.at(-1)!.event, 'stopped');
  });

  it('opens a tunnel through a localtunnel server and prints its public URL and state', async () => {
    const server = new LocaltunnelServer();
    await server.start();
    try {
      const listening = main(
        ['listen', '--trust-file', trustFile, '--tunnel', '--tunnel-host', server.url, '--path', '/hooks'],
        io(),
      );
      await until(() => lines.some((l) => l.event === 'ready'));
      const ready = lines.find((l) => l.event === 'ready')!;
      assert.match(ready.publicUrl, /^http:\/\/[0-9a-f]+\.tunnel\.test:\d+\/hooks$/);
      assert.ok(lines.some((l) => l.event === 'tunnel' && l.state === 'open'));
      stop!();
      assert.equal(await listening, 0);
    } finally {
      await server.stop();
    }
  });

  it('a dead tunnel host: exit 1 with a tunnel error', async () => {
    const code = await main(
      ['listen', '--trust-file', trustFile, '--tunnel', '--tunnel-host', 'http://127.0.0.1:9'],
      io(),
    );
    assert.equal(code, 1);
    assert.equal(lines.at(-1)!.kind, 'tunnel');
  });

  it('names no public address unless asked: no flag opens no tunnel', async () => {
    const listening = main(['listen', '--trust-file', trustFile], io());
    await until(() => lines.some((l) => l.event === 'ready'));
    assert.equal(lines.find((l) => l.event === 'ready')!.publicUrl, null);
    stop!();
    assert.equal(await listening, 0);
    assert.deepEqual(
      lines.map((l) => l.event),
      ['ready', 'stopped'],
    );
  });

  it('usage errors: the tunnel flags go with --tunnel, which --no-tunnel and --public-url exclude', async () => {
    for (const [args, message] of [
      [['--tunnel-host', 'http://127.0.0.1:9'], /add --tunnel/],
      [['--subdomain', 'mine'], /add --tunnel/],
      [['--tunnel', '--no-tunnel'], /--no-tunnel excludes --tunnel/],
      [
        ['--tunnel', '--public-url', 'http://127.0.0.1:1/webhooks', '--port', '1'],
        /--public-url excludes --no-tunnel and --tunnel/,
      ],
    ] as const) {
      assert.equal(await main(['listen', '--trust-file', trustFile, ...args], io()), 2, args.join(' '));
      assert.match(lines.at(-1)!.message, message);
    }
    assert.ok(!lines.some((l) => l.event === 'tunnel' || l.event === 'ready'));
  });

  it('usage errors: no trust file, a malformed one, a non-loopback host', async () => {
    assert.equal(await main(['listen', '--no-tunnel'], io()), 2);
    const bad = join(mkdtempSync(join(tmpdir(), 'wfs-trust-')), 'bad.json');
    writeFileSync(bad, '[{"issuer":"x"}]');
    assert.equal(await main(['listen', '--no-tunnel', '--trust-file', bad], io()), 2);
    assert.match(lines.at(-1)!.message, /jwksUrl/);
    assert.equal(await main(['listen', '--no-tunnel', '--trust-file', trustFile, '--host', '192.0.2.1'], io()), 2);
    assert.match(lines.at(-1)!.message, /loopback/);
  });
});

// Help, version and usage errors of the spawned `wfs`: a request that breaks a rule is refused before anything is
// sent, credentials included.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import manifest from '../../package.json';
import { CLI, withSandboxProcess, WfsProcess } from './helpers/wfsProcess';
import { startArgs, testWebhookArgs } from './helpers/commandArgs';

const COMMANDS = ['sandbox', 'start', 'status', 'find', 'test-webhook', 'listen', 'audit', 'mcp'];

/** A TCP server that only counts connections: proof that nothing at all was sent to it. */
async function countingServer(): Promise<{ server: Server; url: string; connections: () => number }> {
  let n = 0;
  const server = createServer((s) => {
    n++;
    s.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { server, url: `http://127.0.0.1:${port}`, connections: () => n };
}

describe('wfs help, version and usage errors as a process', function () {
  this.timeout(60_000);

  for (const name of COMMANDS) {
    it(`wfs ${name} --help prints its usage, flags and exit codes on stdout and exits 0`, async () => {
      const p = new WfsProcess([name, '--help']);
      assert.equal(await p.exitCode(), 0, p.stderr);
      assert.match(p.stdout, new RegExp(`^usage: wfs ${name} `));
      assert.match(p.stdout, /\nflags:\n/);
      assert.match(p.stdout, /\nexit codes:\n/);
      assert.match(p.stdout, /--help/);
      // Each code once, in order: a command's own meaning replaces the common one.
      const codes = p.stdout
        .split('\nexit codes:\n')[1]!
        .split('\n')
        .flatMap((l) => /^  (\d+) /.exec(l)?.[1] ?? [])
        .map(Number);
      assert.deepEqual(
        codes,
        [...new Set(codes)].sort((a, b) => a - b),
        p.stdout,
      );
      assert.ok(codes.includes(130), `130 (interrupted) is listed: ${p.stdout}`);
    });
  }

  it('wfs --help lists every command; wfs with no command prints it on stderr and exits 2', async () => {
    const help = new WfsProcess(['--help']);
    assert.equal(await help.exitCode(), 0);
    for (const name of COMMANDS) assert.match(help.stdout, new RegExp(`\\n  ${name} `));
    const bare = new WfsProcess([]);
    assert.equal(await bare.exitCode(), 2);
    assert.match(bare.stderr, /usage: wfs <command>/);
  });

  it('wfs --help names the sign-in variables (every one a service command reads) with a ready-to-run example', async () => {
    const help = new WfsProcess(['--help']);
    assert.equal(await help.exitCode(), 0);
    const environment = help.stdout.split('\nenvironment')[1] ?? '';
    for (const name of [
      'WFS_BASE_URL',
      'WFS_TEST_WEBHOOK_URL',
      'WFS_USERNAME',
      'WFS_PASSWORD',
      'WFS_USER_ALIAS',
      'WFS_USER_ALIAS_PLACEMENT',
      'WFS_RATE_LIMIT_ATTEMPTS',
      'HTTPS_PROXY',
    ])
      assert.match(environment, new RegExp(`\\b${name}\\b`), name);
    assert.match(
      help.stdout,
      /\n  export WFS_BASE_URL=http:\/\/127\.0\.0\.1:4010 WFS_USERNAME=demo WFS_PASSWORD=demo-password\n  wfs start --session sess-demo-staged /,
    );
  });

  it('wfs --version prints the package version', async () => {
    const p = new WfsProcess(['--version']);
    assert.equal(await p.exitCode(), 0);
    assert.equal(p.stdout, `${manifest.version}\n`);
  });

  it('an unknown flag, a flag without its value, a stray argument: exit 2 naming it', async () => {
    for (const [args, message] of [
      [['sandbox', '--bogus'], /^unknown flag --bogus$/],
      // A flag one typo away is named; one written for an environment variable points to it.
      [['listen', '--prot', '3'], /^unknown flag --prot \(did you mean --port\?\)$/],
      [['status', '--folow', '--workflow', 'w'], /^unknown flag --folow \(did you mean --follow\?\)$/],
      [['listen', '--data', 'x'], /^unknown flag --data$/],
      // A word more or less than a flag names it, when only one flag fits.
      [['status', '--workflow-id', 'w'], /^unknown flag --workflow-id \(did you mean --workflow\?\)$/],
      [['start', '--session-id', 's'], /^unknown flag --session-id \(did you mean --session\?\)$/],
      [['find', '--correlation', 'c'], /^unknown flag --correlation \(did you mean --correlation-id\?\)$/],
      [['listen', '--trust', 'x'], /^unknown flag --trust$/],
      [
        ['test-webhook', '--base-url', 'http://127.0.0.1:9'],
        /^unknown flag --base-url: set WFS_BASE_URL in the environment instead$/,
      ],
      [['start', '--password=hunter2'], /^unknown flag --password: set WFS_PASSWORD in the environment instead$/],
      [['sandbox', '--port'], /--port needs a value$/],
      // A negative number after a flag is read as a flag: the message says how to pass it as the value.
      [
        ['listen', '--history-memory', '-1', '--trust-sandbox', 'http://127.0.0.1:9'],
        /^--history-memory needs a value: "-1" is read as a flag \(write --history-memory=-1 if it is the value\)$/,
      ],
      [
        ['listen', '--history-memory=-1', '--trust-sandbox', 'http://127.0.0.1:9'],
        /--history-memory must be an integer from 1 to 65536/,
      ],
      [['status', '--follow=yes', '--workflow', 'w'], /--follow takes no value/],
      // An address without its scheme is named with one.
      [
        ['listen', '--trust-sandbox', '127.0.0.1:9'],
        /^--trust-sandbox is not a URL: 127\.0\.0\.1:9 \(it lacks its scheme: write http:\/\/127\.0\.0\.1:9\)$/,
      ],
      [
        ['listen', '--trust-sandbox', 'http://127.0.0.1:9', '--forward-to', 'localhost:3000'],
        /^--forward-to must be an http\(s\) URL \(it lacks its scheme: write http:\/\/localhost:3000\)$/,
      ],
      // Every address is parsed as a URL at start: one with no host is refused before anything listens or is sent.
      [['listen', '--issuer', 'i', '--audience', 'a', '--jwks-url', 'http://'], /^--jwks-url is not a URL: http:\/\/$/],
      [
        ['listen', '--trust-sandbox', 'http://127.0.0.1:9', '--public-url', 'http://[bad', '--port', '3'],
        /^--public-url is not a URL: http:\/\/\[bad$/,
      ],
      [
        ['listen', '--trust-sandbox', 'http://127.0.0.1:9', '--tunnel', '--tunnel-host', 'localtunnel.me'],
        /^--tunnel-host is not a URL: localtunnel\.me \(it lacks its scheme: write https:\/\/localtunnel\.me\)$/,
      ],
      [
        ['audit', '--target', 'localhost:3000/webhooks'],
        /^--target must be an http\(s\) URL \(it lacks its scheme: write http:\/\/localhost:3000\/webhooks\)$/,
      ],
      [['audit', '--target', 'http://'], /^--target is not a URL: http:\/\/$/],
      [['audit', 'http://x'], /unexpected argument "http:\/\/x"/],
      [['frobnicate'], /unknown command "frobnicate"/],
    ] as const) {
      const p = new WfsProcess([...args]);
      assert.equal(await p.exitCode(), 2, args.join(' '));
      assert.deepEqual([p.lines.at(-1)!.event, p.lines.at(-1)!.kind], ['error', 'usage']);
      assert.match(p.lines.at(-1)!.message, message);
    }
  });

  describe('refused before anything is sent', () => {
    const s = withSandboxProcess();

    it('a 300-character correlationId: exit 2, and the sandbox saw no request at all (no sign-in)', async () => {
      const p = new WfsProcess([...startArgs(s), '--correlation-id', 'x'.repeat(300)], s.env);
      assert.equal(await p.exitCode(), 2);
      assert.match(p.lines.at(-1)!.message, /255/);
      await s.control('GET', 'stats');
      await s.proc.line((l) => l.event === 'request' && l.path === '/sandbox/stats', 'the stats request line');
      assert.deepEqual(
        s.requests().filter((r) => !r.includes(' /sandbox/')),
        [],
        'no sign-in, no start',
      );
    });

    it('an http --address for the real service: exit 2 (not a transport error), with no connection made', async () => {
      const service = await countingServer();
      try {
        const env = {
          WFS_BASE_URL: service.url.replace('127.0.0.1', 'localhost'),
          WFS_TEST_WEBHOOK_URL: 'https://hooks.example.invalid',
          WFS_USERNAME: 'u',
          WFS_PASSWORD: 'p',
        };
        const p = new WfsProcess(testWebhookArgs('http://example.invalid/hook'), env);
        assert.equal(await p.exitCode(), 2, p.stdout);
        assert.equal(p.lines.at(-1)!.kind, 'local-validation');
        assert.match(p.lines.at(-1)!.message, /https/);
        assert.equal(service.connections(), 0);
      } finally {
        service.server.close();
      }
    });

    it('an unreachable service with a malformed request: still exit 2, never a transport error', async () => {
      const env = { WFS_BASE_URL: 'http://127.0.0.1:9', WFS_USERNAME: 'u', WFS_PASSWORD: 'p' };
      const p = new WfsProcess([...testWebhookArgs('http://127.0.0.1:9/x'), '--webhook-id', 'not-a-uuid'], env);
      assert.equal(await p.exitCode(), 2);
      assert.match(p.lines.at(-1)!.message, /not a UUID/);
    });

    it('--log pointing at a directory: exit 2 naming the flag and the path', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'wfs-logdir-'));
      const p = new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl, '--no-tunnel', '--log', dir]);
      assert.equal(await p.exitCode(), 2);
      assert.match(p.lines.at(-1)!.message, new RegExp(`^--log ${dir}: is a directory`));
    });

    it('--log /dev/null (meant as "no log"): exit 2, no lock beside it, and the device untouched', async function () {
      if (process.platform !== 'linux') this.skip();
      const p = new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl, '--log', '/dev/null']);
      assert.equal(await p.exitCode(), 2);
      assert.equal(
        p.lines.at(-1)!.message,
        '--log /dev/null: is not a regular file (a device, a pipe or a socket); give a file path, or leave --log out to keep the history in memory only',
      );
      assert.equal(existsSync('/dev/null.lock'), false);
      assert.ok(statSync('/dev/null').isCharacterDevice());
    });

    it('a device or an endless pipe given as --trust-file or --data: read up to a bound, then exit 2 (nothing sent)', async function () {
      if (process.platform !== 'linux') this.skip();
      const trust = new WfsProcess(['listen', '--trust-file', '/dev/zero']);
      assert.equal(await trust.exitCode(), 2);
      assert.equal(trust.lines.at(-1)!.message, '--trust-file /dev/zero: cannot read it: larger than 1 MiB');
      const hook = testWebhookArgs('http://127.0.0.1:9/x');
      const data = new WfsProcess([...hook, '--data', '/dev/zero'], s.env);
      assert.equal(await data.exitCode(), 2);
      assert.equal(data.lines.at(-1)!.message, '--data: cannot read /dev/zero: larger than 64 MiB');
      // `yes | wfs test-webhook --data -`: standard input that never ends.
      const piped = spawnSync('sh', ['-c', `yes | exec "$0" "$@"`, process.execPath, CLI, ...hook, '--data', '-'], {
        env: { PATH: process.env.PATH, ...s.env },
        encoding: 'utf8',
        timeout: 50_000,
      });
      assert.equal(piped.status, 2, piped.stderr);
      assert.equal(
        JSON.parse(piped.stdout.trim().split('\n').at(-1)!).message,
        '--data: cannot read standard input: larger than 64 MiB',
      );
      // The sandbox prints its request lines as it serves them: one of our own, last, says it has printed the rest.
      const stats = () => s.proc.events('request').filter((l) => l.path === '/sandbox/stats').length;
      const before = stats();
      await s.control('GET', 'stats');
      await s.proc.line(() => stats() > before, 'the stats request line');
      assert.deepEqual(
        s.requests().filter((r) => !r.includes(' /sandbox/')),
        [],
        'no sign-in',
      );
    });

    it('a service whose TLS certificate this process does not trust: the error says so and names NODE_EXTRA_CA_CERTS, which then works', async () => {
      const fixtures = join(__dirname, '../../../test/fixtures');
      const tls = createHttpsServer(
        {
          key: readFileSync(join(fixtures, 'tls-self-signed.key')),
          cert: readFileSync(join(fixtures, 'tls-self-signed.crt')),
        },
        (req, res) => {
          req.resume();
          res.writeHead(401, { 'content-type': 'application/json' }).end('{}');
        },
      );
      await new Promise<void>((r) => tls.listen(0, '127.0.0.1', r));
      try {
        const env = {
          WFS_BASE_URL: `https://127.0.0.1:${(tls.address() as AddressInfo).port}`,
          WFS_USERNAME: 'u',
          WFS_PASSWORD: 'p',
        };
        const untrusted = new WfsProcess(['status', '--workflow', 'wf_1'], env);
        assert.equal(await untrusted.exitCode(), 1);
        assert.match(
          untrusted.lines.at(-1)!.message,
          /: its TLS certificate is not trusted by this process \(DEPTH_ZERO_SELF_SIGNED_CERT\); if a proxy or your organisation re-signs TLS traffic, give its CA certificate in NODE_EXTRA_CA_CERTS=\/path\/to\/ca\.pem/,
        );
        // Given the CA, the same command reaches the service (which refuses the credentials: exit 1, kind auth).
        const trusted = new WfsProcess(['status', '--workflow', 'wf_1'], {
          ...env,
          NODE_EXTRA_CA_CERTS: join(fixtures, 'tls-self-signed.crt'),
        });
        assert.equal(await trusted.exitCode(), 1);
        assert.notEqual(trusted.lines.at(-1)!.kind, 'transport', trusted.stdout);
      } finally {
        tls.close();
      }
    });

    it('a missing variable or a bad proxy address: exit 2 naming it', async () => {
      const noBase = new WfsProcess(['status', '--workflow', 'wf_1'], { WFS_USERNAME: 'u', WFS_PASSWORD: 'p' });
      assert.equal(await noBase.exitCode(), 2);
      assert.match(noBase.lines.at(-1)!.message, /WFS_BASE_URL is not set/);
      // An address without its scheme: "localhost:8080" parses as the scheme "localhost:", "127.0.0.1:9" not at all.
      for (const [base, message] of [
        [
          'localhost:8080',
          /^WFS_BASE_URL must be an http\(s\) URL \(it lacks its scheme: write http:\/\/localhost:8080\)$/,
        ],
        [
          '127.0.0.1:9',
          /^WFS_BASE_URL is not a URL: 127\.0\.0\.1:9 \(it lacks its scheme: write http:\/\/127\.0\.0\.1:9\)$/,
        ],
      ] as const) {
        const noScheme = new WfsProcess(['status', '--workflow', 'wf_1'], {
          WFS_BASE_URL: base,
          WFS_USERNAME: 'u',
          WFS_PASSWORD: 'p',
        });
        assert.equal(await noScheme.exitCode(), 2);
        assert.match(noScheme.lines.at(-1)!.message, message);
      }
      const badProxy = new WfsProcess(['status', '--workflow', 'wf_1'], {
        ...s.env,
        HTTPS_PROXY: 'proxy.example:3128',
      });
      assert.equal(await badProxy.exitCode(), 2);
      assert.match(badProxy.lines.at(-1)!.message, /https proxy "proxy.example:3128" is not a URL|must be an http/);
    });
  });
});

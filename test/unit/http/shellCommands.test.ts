// Copy for every shell: the exact bytes survive each shell's quoting. The bash form and curl's config file are run
// for real (bash -c, curl) against the core Receiver on port 0, which records the SHA-256 of what arrived; PowerShell
// and cmd.exe are not on this machine, so their forms are checked against each shell's documented rules.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  bashCurlCommand,
  cmdCurlCommand,
  hereStringProblem,
  powerShellCommand,
  powerShellQuote,
  type ShellRequest,
} from '../../../src/core/presentation/shellCommands';
import { Receiver } from '../../../src/core/webhooks/Receiver';
import { Verifier } from '../../../src/core/webhooks/Verifier';
import type { DeliveryRecord } from '../../../src/core/webhooks/deliveryRecord';
import { startSandbox, type SandboxFixture } from '../helpers/sandboxFixture';

const run = promisify(execFile);
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Every character a shell treats specially, in one JSON body. */
const NASTY = Buffer.from(
  JSON.stringify({
    q: `it's "quoted" ‘curly’ \`tick\` $HOME $(id) %PATH% !bang! ^caret & | < > ; \\ back`,
    nl: 'line1\nline2\n\ttab',
    text: 'naïve 日本語 🎉',
  }) + '\n',
);
/** Exactly 1 MiB of valid JSON full of shell metacharacters and newlines. */
const MIB = (() => {
  const json = JSON.stringify({ pad: 'x$\'"`%!é\n'.repeat(80_000) });
  return Buffer.concat([
    Buffer.from(json.slice(0, -1)),
    Buffer.alloc(1024 * 1024 - Buffer.byteLength(json), 0x20),
    Buffer.from('}'),
  ]);
})();
const BINARY = Buffer.from([0x7b, 0xff, 0x00, 0x27, 0x0d, 0x0a, 0x7d]);
const HEADERS: [string, string][] = [
  ['content-type', 'application/json'],
  ['x-svc-topic', 'orders/created'],
  ['authorization', 'Bearer <redacted, 900 characters>'],
  ['host', '127.0.0.1:1'],
];

describe('shell commands: copy for every shell', () => {
  let f: SandboxFixture;
  let receiver: Receiver;
  let url: string;
  const records: DeliveryRecord[] = [];

  before(async () => {
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
    await receiver.stop();
    await f.stop();
  });

  /** Runs a command in bash with a sandbox token for exactly `body`, and returns the receiver's record. */
  async function delivered(command: string, body: Buffer): Promise<DeliveryRecord> {
    const before = records.length;
    const token = await f.sandbox.context.signer.sign(body);
    // A command past the 128 KiB one argument may have cannot be `bash -c`'s argument: it runs from a script file,
    // as it would when pasted into a terminal.
    let args = ['-c', command];
    if (command.length > 100_000) {
      const script = join(mkdtempSync(join(tmpdir(), 'wfs-shell-')), 'paste.sh');
      writeFileSync(script, command);
      args = [script];
    }
    await run('bash', args, { env: { ...process.env, WFS_WEBHOOK_TOKEN: token }, maxBuffer: 16 * 1024 * 1024 });
    assert.equal(records.length, before + 1, 'one delivery arrived');
    return records[records.length - 1]!;
  }

  for (const [name, body] of [
    ['quotes, backticks, $, %, !, newlines and non-ASCII', NASTY],
    ['a 1 MiB body (past the 128 KiB a single argument may have)', MIB],
    ['bytes that are not UTF-8, with NUL and CR LF', BINARY],
  ] as const) {
    it(`bash: ${name} arrive byte for byte, and the token from $WFS_WEBHOOK_TOKEN verifies`, async () => {
      const cmd = bashCurlCommand({ url, headers: HEADERS, body });
      assert.ok(!cmd.command.includes('redacted'), 'the recorded Authorization is never copied');
      assert.ok(!/^-H 'host/m.test(cmd.command));
      const r = await delivered(cmd.command, body);
      assert.equal(r.body.size, body.length);
      assert.equal(r.body.sha256, sha(body));
      assert.equal(r.verified, true, JSON.stringify(r.checks.find((c) => !c.ok)));
    });
  }

  it('bash: a body up to 64 KiB stays a readable quoted argument; a larger one is piped by the builtin printf', () => {
    assert.match(bashCurlCommand({ url, headers: [], body: NASTY }).command, /--data-binary '\{/);
    assert.match(
      bashCurlCommand({ url, headers: [], body: MIB }).command,
      /^printf %s '\{"pad"[\s\S]*--data-binary @-$/,
    );
  });

  it('cmd.exe: the body is always a file; unsafe header characters go to a curl config file that curl reads back exactly', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wfs-shell-'));
    const req: ShellRequest = {
      url,
      headers: [...HEADERS, ['x-svc-tenant', 'a "b" 100% !x! ^ naïve']],
      body: NASTY,
    };
    const cmd = cmdCurlCommand(req, (p) => join(dir, p === 'body' ? 'd.body' : 'd.curlrc'));
    assert.equal(cmd.files.find((x) => x.purpose === 'body')!.bytes, NASTY);
    assert.match(
      cmd.command,
      /^curl\.exe -sS -X POST "http:\/\/127\.0\.0\.1:\d+\/webhooks" -H "content-type: application\/json" -H "x-svc-topic: orders\/created" -H "Authorization: Bearer %WFS_WEBHOOK_TOKEN%" -K ".*d\.curlrc" --data-binary "@.*d\.body"$/,
    );
    assert.ok(!cmd.command.includes('\n'), 'one line');
    const onCommandLine = cmd.command.replace(/"Authorization: Bearer %WFS_WEBHOOK_TOKEN%"/, '');
    assert.ok(!/[%!^]/.test(onCommandLine), 'nothing cmd.exe expands, apart from the token variable');
    for (const file of cmd.files) writeFileSync(file.path, file.bytes);
    // cmd.exe passes double-quoted words as they are: the same words, run by curl here, send what curl.exe would.
    const asBash = cmd.command.replace(/^curl\.exe/, 'curl').replace('%WFS_WEBHOOK_TOKEN%', '$WFS_WEBHOOK_TOKEN');
    const r = await delivered(asBash, NASTY);
    assert.equal(r.body.sha256, sha(NASTY));
    assert.equal(r.headers['x-svc-tenant'], Buffer.from('a "b" 100% !x! ^ naïve').toString('latin1'));
    assert.equal(r.verified, true);
    assert.equal(readFileSync(join(dir, 'd.body')).length, NASTY.length);
  });

  it('PowerShell: quotes are doubled, typographic ones too; nothing in a single-quoted string is expanded', () => {
    assert.equal(powerShellQuote(`it's ‘x’ $env:A \`n`), `'it''s ‘‘x’’ $env:A \`n'`);
  });

  it('PowerShell: UTF-8 text is a here-string holding exactly the body, sent as UTF-8 bytes', () => {
    const cmd = powerShellCommand({ url, headers: HEADERS, body: NASTY }, () => assert.fail('no file for text'));
    assert.deepEqual(cmd.files, []);
    const m = /\$body = @'\n([\s\S]*)\n'@ -replace "`r`n", "`n"\n/.exec(cmd.command);
    assert.ok(m, cmd.command);
    assert.equal(m[1], NASTY.toString('utf8'));
    assert.match(cmd.command, /-Body \(\[System\.Text\.Encoding\]::UTF8\.GetBytes\(\$body\)\)$/);
    assert.match(cmd.command, /'x-svc-topic' = 'orders\/created'/);
    assert.match(cmd.command, /'Authorization' = "Bearer \$env:WFS_WEBHOOK_TOKEN"/);
    assert.match(cmd.command, /-ContentType 'application\/json'/);
    assert.ok(!cmd.command.includes('redacted'));
  });

  for (const [name, body, why] of [
    ['a 1 MiB body', MIB, /larger than 256 KiB/],
    ['bytes that are not UTF-8', BINARY, /not UTF-8/],
    ['a carriage return', Buffer.from('{"a":"x\r\ny"}'), /carriage return/],
    ["a line starting with '@ (it would end the here-string)", Buffer.from('{"a":\n\'@\n}'), /starts with '@/],
  ] as const) {
    it(`PowerShell: ${name} is sent from a file (-InFile), byte for byte`, () => {
      assert.match(hereStringProblem(body)!, why);
      const cmd = powerShellCommand({ url, headers: HEADERS, body }, () => "C:\\Temp\\it's.body");
      assert.equal(cmd.files.length, 1);
      assert.equal(cmd.files[0]!.bytes, body);
      assert.match(cmd.bodyInFile!, why);
      assert.match(cmd.command, /-InFile 'C:\\Temp\\it''s\.body'$/);
    });
  }
});

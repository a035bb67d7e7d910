// `wfs keys generate` and `wfs sign` as a user runs them: the written key set verifies `wfs sign`'s tokens with plain
// jose, over the exact bytes of a file or of standard input; each claim option breaks what it names.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet, createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, errors } from 'jose';
import { CLI, startSandboxProcess, WfsProcess } from './helpers/wfsProcess';

/** `wfs` with these bytes on standard input (WfsProcess takes text; these tests need bytes that are not). */
function wfsWithStdin(args: string[], stdin: Buffer): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    input: stdin,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '' },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function wfs(args: string[]): Promise<WfsProcess> {
  const p = new WfsProcess(args);
  await p.exited;
  return p;
}

describe('wfs keys generate and wfs sign', () => {
  let dir: string;
  let keys: string;
  let jwks: ReturnType<typeof createLocalJWKSet>;
  let issuer: { issuer: string; audience: string; kid: string };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wfs-sign-'));
    keys = join(dir, 'keys');
    const g = await wfs([
      'keys',
      'generate',
      '--out',
      keys,
      '--issuer',
      'https://ci.example/iss',
      '--audience',
      'my-app',
    ]);
    assert.equal(await g.exitCode(), 0, g.stdout + g.stderr);
    assert.equal(g.lines[0]!.event, 'keys');
    issuer = JSON.parse(readFileSync(join(keys, 'issuer.json'), 'utf8'));
    jwks = createLocalJWKSet(JSON.parse(readFileSync(join(keys, 'jwks.json'), 'utf8')));
  });

  it('keys generate writes issuer.json, the public key set, and the private key (JWK and PEM) readable by the owner only', async () => {
    assert.deepEqual([issuer.issuer, issuer.audience], ['https://ci.example/iss', 'my-app']);
    const set = JSON.parse(readFileSync(join(keys, 'jwks.json'), 'utf8'));
    assert.deepEqual(
      set.keys.map((k: { kid: string }) => k.kid),
      [issuer.kid],
    );
    assert.equal(set.keys[0].d, undefined, 'the key set has no private part');
    for (const f of ['private-key.jwk.json', 'private-key.pem'])
      assert.equal(statSync(join(keys, f)).mode & 0o777, 0o600, f);
    assert.match(readFileSync(join(keys, 'private-key.pem'), 'utf8'), /^-----BEGIN PRIVATE KEY-----/);
    const again = await wfs(['keys', 'generate', '--out', keys]);
    assert.equal(await again.exitCode(), 2);
    assert.match(again.lines.at(-1)!.message, /already holds issuer\.json.*nothing was written/);
    assert.equal(JSON.parse(readFileSync(join(keys, 'issuer.json'), 'utf8')).kid, issuer.kid, 'unchanged');
  });

  it("a token from `wfs sign --body FILE` verifies with plain jose against the written key set, body_sha256 over the file's bytes", async () => {
    const file = join(dir, 'event.json');
    writeFileSync(file, '{"webhookId":"0b9a3c52-7d1e-4c4b-9f0e-2a6c1d3e4f50","topic":"workflow/completed"}\n');
    const s = await wfs(['sign', '--body', file, '--keys', keys]);
    assert.equal(await s.exitCode(), 0, s.stderr);
    const header = s.stdout.trim();
    assert.match(header, /^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    const { payload, protectedHeader } = await jwtVerify(header.slice(7), jwks, {
      issuer: issuer.issuer,
      audience: issuer.audience,
      algorithms: ['RS256'],
      requiredClaims: ['exp'],
    });
    assert.equal(payload.body_sha256, createHash('sha256').update(readFileSync(file)).digest('hex'));
    assert.equal(protectedHeader.kid, issuer.kid);
    assert.equal(payload.exp! - payload.iat!, 300);
  });

  it("signs standard input's exact bytes, not UTF-8 text made of them", async () => {
    const bytes = Buffer.from([0x7b, 0xff, 0xfe, 0x00, 0x0a, 0x7d]);
    const s = wfsWithStdin(['sign', '--body', '-', '--keys', keys, '--format', 'json'], bytes);
    assert.equal(s.status, 0, s.stderr);
    const line = JSON.parse(s.stdout);
    const { payload } = await jwtVerify(line.token, jwks, { issuer: issuer.issuer, audience: issuer.audience });
    assert.equal(payload.body_sha256, createHash('sha256').update(bytes).digest('hex'));
    assert.deepEqual(
      [line.event, line.bodyBytes, line.bodySha256, line.authorization],
      ['signed', 6, payload.body_sha256, `Bearer ${line.token}`],
    );
  });

  it('--exp, --aud, --iss, --kid and --omit each break what they name; the signature stays valid', async () => {
    const file = join(dir, 'b.json');
    writeFileSync(file, '{}');
    const token = async (...extra: string[]) => {
      const s = await wfs(['sign', '--body', file, '--keys', keys, ...extra]);
      assert.equal(await s.exitCode(), 0, s.stdout + s.stderr);
      return s.stdout.trim().slice(7);
    };
    await assert.rejects(jwtVerify(await token('--exp=-120'), jwks, { clockTolerance: 60 }), errors.JWTExpired);
    const omitted = await token('--omit', 'body_sha256');
    assert.equal(decodeJwt(omitted).body_sha256, undefined);
    await jwtVerify(omitted, jwks);
    assert.equal(decodeJwt(await token('--aud', 'someone-else')).aud, 'someone-else');
    assert.equal(decodeJwt(await token('--iss', 'https://evil.example')).iss, 'https://evil.example');
    const plus30 = decodeJwt(await token('--exp', '+30'));
    assert.equal(plus30.exp! - plus30.iat!, 30);
    assert.equal(decodeJwt(await token('--exp', '1700000000')).exp, 1700000000);
    assert.equal(decodeJwt(await token('--omit', 'iat')).iat, undefined);
    const otherKid = await token('--kid', 'not-in-the-set');
    assert.equal(decodeProtectedHeader(otherKid).kid, 'not-in-the-set');
    await assert.rejects(jwtVerify(otherKid, jwks), errors.JWKSNoMatchingKey);
  });

  it("--format curl prints a command that sends the file's bytes with the header", async () => {
    const file = join(dir, "it's.json");
    writeFileSync(file, '{"a":1}');
    const s = await wfs([
      'sign',
      '--body',
      file,
      '--keys',
      keys,
      '--format',
      'curl',
      '--to',
      'http://127.0.0.1:9/hook',
    ]);
    assert.equal(await s.exitCode(), 0, s.stderr);
    assert.match(
      s.stdout,
      /^curl -sS --globoff -X POST \\\n  --url 'http:\/\/127\.0\.0\.1:9\/hook' \\\n  -H 'Content-Type: application\/json' \\\n  -H 'Authorization: Bearer [\w.-]+' \\\n  --data-binary @- < '.*it'\\''s\.json'\n$/,
    );
  });

  it('refuses what cannot be signed, before signing: no key source, both, an unknown --omit, a folder without keys', async () => {
    const file = join(dir, 'c.json');
    writeFileSync(file, '{}');
    const cases: [string[], RegExp][] = [
      [
        ['sign', '--body', file],
        /^nothing to sign with: no --keys DIR, and no sandbox \(WFS_BASE_URL and WFS_SANDBOX_SECRET are not set\)\. Give --keys DIR \(a folder from `wfs keys generate --out DIR`\), or paste the `export` line that `wfs sandbox` prints/,
      ],
      [
        ['sign'],
        /^--body is missing: .*; and nothing to sign with: no --keys DIR, and no sandbox \(WFS_BASE_URL and WFS_SANDBOX_SECRET are not set\)/,
      ],
      [
        ['sign', '--body', file, '--keys', keys, '--sandbox-url', 'http://127.0.0.1:1'],
        /^both --keys and --sandbox-url were given: sign with one/,
      ],
      [
        ['sign', '--body', file, '--keys', keys, '--omit', 'kid'],
        /--omit kid: only body_sha256, exp, iat, jti, iss, aud/,
      ],
      [
        ['sign', '--body', file, '--keys', dir],
        /--keys: cannot read .*issuer\.json \(ENOENT\): is .* a folder written by/,
      ],
      [['sign', '--body', join(dir, 'missing.json'), '--keys', keys], /--body: cannot read .*missing\.json: ENOENT/],
      [['sign', '--body', file, '--keys', keys, '--format', 'curl'], /--format curl needs --to URL/],
    ];
    for (const [args, message] of cases) {
      const s = await wfs(args);
      assert.equal(await s.exitCode(), 2, args.join(' '));
      assert.match(s.lines.at(-1)!.message, message);
    }
  });

  it('--sandbox-url: the sandbox signs, and its key set verifies the token', async () => {
    const sandbox = await startSandboxProcess();
    try {
      const file = join(dir, 'd.json');
      writeFileSync(file, '{"x":"ü"}');
      const s = await wfs([
        'sign',
        '--body',
        file,
        '--sandbox-url',
        sandbox.info.baseUrl,
        '--format',
        'json',
        '--omit',
        'jti',
      ]);
      assert.equal(await s.exitCode(), 0, s.stdout + s.stderr);
      const line = s.lines[0]!;
      const { payload } = await jwtVerify(line.token, createRemoteJWKSet(new URL(sandbox.info.jwksUrl)), {
        issuer: sandbox.info.issuer,
        audience: sandbox.info.audience,
        algorithms: ['RS256'],
      });
      assert.equal(payload.body_sha256, createHash('sha256').update(readFileSync(file)).digest('hex'));
      assert.equal(payload.jti, undefined);
    } finally {
      await sandbox.stop();
    }
  });

  describe("a cloned repository's key folder (issue #67, hole 5): nothing outside it is read or used, nothing quoted", () => {
    let repo: string;
    let folder: string;
    let issuerFile: Record<string, unknown>;
    let file: string;
    before(() => {
      repo = join(dir, 'cloned');
      folder = join(repo, 'test', 'webhook-keys');
      mkdirSync(folder, { recursive: true });
      for (const f of ['issuer.json', 'jwks.json', 'private-key.jwk.json', 'private-key.pem'])
        copyFileSync(join(keys, f), join(folder, f));
      issuerFile = JSON.parse(readFileSync(join(folder, 'issuer.json'), 'utf8'));
      // Three levels up from test/webhook-keys: beside the repository, where the user keeps something else.
      writeFileSync(join(dir, 'secret.txt'), 'TOP-SECRET\n');
      file = join(dir, 'event.json');
      writeFileSync(file, '{}');
    });
    const naming = (privateKey: string) =>
      writeFileSync(join(folder, 'issuer.json'), JSON.stringify({ ...issuerFile, privateKey }));
    /** `wfs sign --keys` on the folder, piped and as text: exit 2, no token, nothing of the file it names; the
     * message names the file and the rule. */
    const refused = async (names: RegExp) => {
      for (const face of ['--json', '--human']) {
        const s = await wfs(['sign', '--body', file, '--keys', folder, face]);
        assert.equal(await s.exitCode(), 2, s.stdout + s.stderr);
        assert.doesNotMatch(s.stdout + s.stderr, /TOP-SECRET/);
        assert.doesNotMatch(s.stdout + s.stderr, /Bearer/);
        const message = face === '--json' ? s.lines.at(-1)!.message : s.stderr;
        if (face === '--human') assert.match(message, /^✗ --keys: /);
        assert.match(message, names);
        assert.match(
          message,
          /\. Nothing was read: the files a key folder names must be inside it: a name relative to the folder, without "\.\.", and no link out\./,
        );
      }
    };

    it('"privateKey": "../../../secret.txt" is refused by its name', async () => {
      naming('../../../secret.txt');
      await refused(
        /issuer\.json names "privateKey": "\.\.\/\.\.\/\.\.\/secret\.txt", which leads out of the folder with "\.\."/,
      );
    });

    it('an absolute path to a real private key outside the folder is not signed with', async () => {
      naming(join(keys, 'private-key.pem'));
      await refused(/names "privateKey": ".*private-key\.pem", which is an absolute path/);
      naming(join(dir, 'secret.txt'));
      await refused(/names "privateKey": ".*secret\.txt", which is an absolute path/);
    });

    it('a link in the folder to a file outside it is not followed', async () => {
      symlinkSync(join(dir, 'secret.txt'), join(folder, 'key.pem'));
      naming('key.pem');
      await refused(/names "privateKey": "key\.pem", which is a link to outside the folder/);
    });

    it('a file in the folder that is not a key is named with where it fails, never quoted', async () => {
      writeFileSync(join(folder, 'notes.json'), 'TOP-SECRET');
      naming('notes.json');
      const s = await wfs(['sign', '--body', file, '--keys', folder]);
      assert.equal(await s.exitCode(), 2);
      assert.doesNotMatch(s.stdout + s.stderr, /TOP-SECRET/);
      assert.equal(
        s.lines.at(-1)!.message,
        `--keys: ${join(folder, 'notes.json')} is neither a private JWK nor a PEM private key: it is not valid JSON (line 1, column 1)`,
      );
    });
  });
});

// A JSON file the CLI reads, with a mistake in it (issue 69, point 14): the error says the line and column, as the
// fixtures' errors already did, for --data and --profile (and a plain event body, in plainEvents.test.ts).
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WfsProcess } from './helpers/wfsProcess';
import { testWebhookArgs } from './helpers/commandArgs';

/** A missing comma at the start of line 3. */
const BROKEN = '{\n  "format": "wfs-sandbox-profile"\n  "version": 1\n}\n';

describe('JSON files with a mistake: the line and column', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'wfs-json-'));
  });

  it('test-webhook --data FILE: exit 2, "line 3, column 3", before anything is sent', async () => {
    const file = join(dir, 'data.json');
    writeFileSync(file, BROKEN);
    const p = new WfsProcess([...testWebhookArgs('https://example.test/hook'), '--data', file], {
      WFS_BASE_URL: 'http://127.0.0.1:9',
      WFS_USERNAME: 'u',
      WFS_PASSWORD: 'p',
    });
    assert.equal(await p.exitCode(), 2, p.stdout + p.stderr);
    assert.equal(p.lines.at(-1)!.message, `--data ${file}: not valid JSON: expected "," or "}" at line 3, column 3`);
    const stdin = new WfsProcess(
      [...testWebhookArgs('https://example.test/hook'), '--data', '-'],
      { WFS_BASE_URL: 'http://127.0.0.1:9', WFS_USERNAME: 'u', WFS_PASSWORD: 'p' },
      { stdin: '[1, 2,]' },
    );
    assert.equal(await stdin.exitCode(), 2);
    assert.equal(
      stdin.lines.at(-1)!.message,
      '--data -: not valid JSON: a trailing comma before "]" at line 1, column 7',
    );
  });

  it('sandbox --profile FILE: exit 2, "line 3, column 3"', async () => {
    const file = join(dir, 'profile.json');
    writeFileSync(file, BROKEN);
    const p = new WfsProcess(['sandbox', '--port', '0', '--profile', file]);
    assert.equal(await p.exitCode(), 2, p.stdout + p.stderr);
    assert.equal(p.lines.at(-1)!.message, `--profile ${file}: not JSON: expected "," or "}" at line 3, column 3`);
  });
});

// The extension-host test entry: the standard --extensionTestsPath contract (run(): Promise<void>), so the same
// suite runs under @vscode/test-electron and under code-server. Results also go to WFS_VSCODE_RESULT_FILE when set.
import Mocha from 'mocha';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface TestResult {
  title: string;
  state: 'passed' | 'failed';
  durationMs?: number;
  error?: string;
}

export function run(): Promise<void> {
  const mocha = new Mocha({
    ui: 'bdd',
    timeout: 60_000,
    color: false,
    reporter: 'spec',
    grep: process.env.WFS_VSCODE_GREP,
  });
  const dir = join(__dirname, 'suite');
  // In name order; no suite relies on another having run, or not run, before it.
  for (const f of readdirSync(dir)
    .filter((n) => n.endsWith('.test.js'))
    .sort())
    mocha.addFile(join(dir, f));
  const results: TestResult[] = [];
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const file = process.env.WFS_VSCODE_RESULT_FILE;
      if (file) writeFileSync(file, JSON.stringify({ failures, results }, null, 2));
      if (failures > 0) reject(new Error(`${failures} extension-host test(s) failed`));
      else resolve();
    });
    runner.on('pass', (t) => results.push({ title: t.fullTitle(), state: 'passed', durationMs: t.duration }));
    runner.on('fail', (t, err) =>
      results.push({ title: t.fullTitle(), state: 'failed', error: String(err?.stack ?? err) }),
    );
  });
}

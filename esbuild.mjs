// Bundles the extension and the CLI, and transpiles the tests for mocha.
// `node esbuild.mjs` builds dist/; `node esbuild.mjs --tests` also writes out/ (tests + sources, unbundled).
import * as esbuild from 'esbuild';
import { copyFileSync, readdirSync, statSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const production = process.argv.includes('--production');
const withTests = process.argv.includes('--tests');

function filesUnder(dir, suffix) {
  let out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out = out.concat(filesUnder(p, suffix));
    else if (p.endsWith(suffix) && !p.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
};

await esbuild.build({ ...common, entryPoints: { extension: 'src/extension/extension.ts' }, outdir: 'dist', external: ['vscode'] });
await esbuild.build({ ...common, entryPoints: { cli: 'src/cli/main.ts' }, outdir: 'dist', banner: { js: '#!/usr/bin/env node' } });

if (withTests) {
  rmSync('out', { recursive: true, force: true });
  await esbuild.build({
    entryPoints: [...filesUnder('src', '.ts'), ...filesUnder('test', '.ts')],
    outdir: 'out',
    outbase: '.',
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  // Unbundled sources import ../../package.json (name and version); keep that path valid under out/.
  copyFileSync('package.json', 'out/package.json');
}

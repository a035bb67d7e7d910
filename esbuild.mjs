// Bundles the extension and the CLI, and transpiles the tests for mocha.
// `node esbuild.mjs` builds dist/; `node esbuild.mjs --tests` also writes out/ (tests + sources, unbundled).
import * as esbuild from 'esbuild';
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  statSync,
  rmSync,
  writeFileSync,
  existsSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const production = process.argv.includes('--production');
const withTests = process.argv.includes('--tests');
const cliPackage = process.argv.includes('--cli-package');

/** The test kit's one .d.ts, rolled up by API Extractor from its source's declarations (src/testkit/api-extractor.json).
 * A local build: it also refreshes src/testkit/testkit.api.md, which `npm run api` (in lint) checks is current. */
async function testkitTypes() {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'src/testkit/tsconfig.json'], {
    stdio: 'inherit',
  });
  const { Extractor, ExtractorConfig } = await import('@microsoft/api-extractor');
  const result = Extractor.invoke(ExtractorConfig.loadFileAndPrepare('src/testkit/api-extractor.json'), {
    localBuild: true,
  });
  if (!result.succeeded) throw new Error(`API Extractor: ${result.errorCount} errors in the test kit's types`);
  return 'out/testkit-types/testkit.d.ts';
}

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

await esbuild.build({
  ...common,
  entryPoints: { extension: 'src/extension/extension.ts' },
  outdir: 'dist',
  external: ['vscode'],
});
// The extension's l10n bundle: every vscode.l10n.t message of src/extension and l10n.t of its webviews, exported by @vscode/l10n-dev into
// l10n/bundle.l10n.json (package.json "l10n"), which the .vsix ships and translators start from. The export parses
// every file (some seconds): a test build skips it while the bundle is newer than every source file.
function l10nBundleCurrent() {
  const bundle = 'l10n/bundle.l10n.json';
  try {
    const made = statSync(bundle).mtimeMs;
    return [
      'esbuild.mjs',
      ...filesUnder('src/extension', '.ts'),
      ...filesUnder('src/core', '.ts'),
      ...filesUnder('media/panel', '.js'),
    ].every((f) => statSync(f).mtimeMs < made);
  } catch {
    return false;
  }
}
if (!(withTests && !production && l10nBundleCurrent())) {
  const { getL10nJson } = await import('@vscode/l10n-dev');
  const sources = filesUnder('src/extension', '.ts').map((f) => ({
    contents: readFileSync(f, 'utf8'),
    extension: '.ts',
  }));
  // The webviews' words: media/panel/*.js call l10n.t (dom.js reads the bundle from the page). The exporter takes
  // l10n.t calls only where l10n comes from vscode or @vscode/l10n, so each script is read as if it did.
  for (const f of filesUnder('media/panel', '.js'))
    sources.push({ contents: `const l10n = require('@vscode/l10n');\n${readFileSync(f, 'utf8')}`, extension: '.js' });
  // Core's words for people: each `said('…', v)` call (core/presentation/said.ts), read as the l10n.t call it stands
  // for, so the extension's bundle holds what core says and the extension words it through vscode.l10n.
  for (const f of filesUnder('src/core', '.ts')) {
    const text = readFileSync(f, 'utf8');
    if (/\bsaid\(\s*['"]/.test(text))
      sources.push({
        contents: `const l10n = require('@vscode/l10n');\n${text.replace(/\bsaid\((?=\s*['"])/g, 'l10n.t(')}`,
        extension: '.ts',
      });
  }
  mkdirSync('l10n', { recursive: true });
  writeFileSync('l10n/bundle.l10n.json', JSON.stringify(await getL10nJson(sources), null, 2) + '\n');
}
// The CLI: dist/cli.js is src/cli/bin.ts, main.ts and what `wfs --help` needs, as CommonJS (a `bin` may not be an ES
// module), so help and the version read a few dozen KiB. Each command and runCommand.ts is an entry of an ES module
// build split at every import() into dist/wfs/: main.ts and commandList.ts import them from there when a command
// runs, and a command reads only its own code and the chunks it shares (the MCP SDK, zod and ajv: `wfs mcp` alone).
// The two builds share no object: a command gets its flags and the CliIO (functions and a clock), and returns a code.
// Bundled CommonJS code (undici, localtunnel) still calls require() for Node's own modules: each chunk gets one.
const CLI_CHUNKS = 'dist/wfs';
const commandModules = [...filesUnder('src/cli/commands', '.ts'), 'src/cli/runCommand.ts'];
rmSync(CLI_CHUNKS, { recursive: true, force: true });
await esbuild.build({
  ...common,
  format: 'esm',
  splitting: true,
  entryPoints: commandModules,
  entryNames: '[name]',
  outdir: CLI_CHUNKS,
  outExtension: { '.js': '.mjs' },
  banner: {
    js: "import { createRequire as __wfsCreateRequire } from 'node:module'; const require = __wfsCreateRequire(import.meta.url);",
  },
});
await esbuild.build({
  ...common,
  entryPoints: { cli: 'src/cli/bin.ts' },
  outdir: 'dist',
  banner: { js: '#!/usr/bin/env node' },
  plugins: [
    {
      name: 'commands-in-chunks',
      setup: (build) =>
        build.onResolve({ filter: /^\.\/(commands\/[A-Za-z]+|runCommand)$/ }, (args) => ({
          path: `./wfs/${args.path.split('/').pop()}.mjs`,
          external: true,
        })),
    },
  ],
});

// A document as the package ships it: a link to a file the package does not hold (docs/containers.md, the repository's
// Dockerfile) keeps its words and loses its target, so no link in node_modules leads nowhere.
const PACKAGED_DOCS = new Set(['README.md', 'testkit.md', 'agents.md', 'LICENSE']);
function packagedDoc(text) {
  return text.replace(/\[([^\]]+)\]\(([^)#:]+)(#[^)]*)?\)/g, (link, words, target) =>
    PACKAGED_DOCS.has(target) || target === 'cli.md' ? link : words,
  );
}

// The CLI on its own: dist/cli.js and dist/wfs/ bundle every dependency, so its package needs no node_modules and no VS Code.
// `npm pack dist/cli-package` then makes the tarball a user installs (npm run pack:cli).
if (cliPackage) {
  const root = JSON.parse(readFileSync('package.json', 'utf8'));
  const dir = 'dist/cli-package';
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  copyFileSync('dist/cli.js', `${dir}/cli.js`);
  cpSync(CLI_CHUNKS, `${dir}/wfs`, { recursive: true });
  writeFileSync(`${dir}/README.md`, packagedDoc(readFileSync('docs/cli.md', 'utf8')));
  copyFileSync('LICENSE', `${dir}/LICENSE`);
  // The test kit (docs/testkit.md), for CommonJS and ESM, jose and undici bundled in; its types rolled up from source.
  // In the ESM build the bundled CommonJS code (undici) still calls require() for Node's own modules.
  await esbuild.build({
    ...common,
    keepNames: true,
    entryPoints: ['src/testkit/index.ts'],
    outfile: `${dir}/testkit.cjs`,
  });
  await esbuild.build({
    ...common,
    keepNames: true,
    format: 'esm',
    entryPoints: ['src/testkit/index.ts'],
    outfile: `${dir}/testkit.mjs`,
    banner: {
      js: "import { createRequire as __wfsCreateRequire } from 'node:module'; const require = __wfsCreateRequire(import.meta.url);",
    },
  });
  copyFileSync(await testkitTypes(), `${dir}/testkit.d.ts`);
  // The package ships docs/cli.md as its README.md: the links of testkit.md and agents.md (wfs mcp) to it follow.
  for (const doc of ['testkit.md', 'agents.md'])
    writeFileSync(
      `${dir}/${doc}`,
      packagedDoc(readFileSync(`docs/${doc}`, 'utf8').replace(/\]\(cli\.md(#[^)]*)?\)/g, '](README.md$1)')),
    );
  // The service's objects as JSON Schemas (src/core/schemas), for any language's tests.
  cpSync('src/core/schemas/json', `${dir}/schemas`, { recursive: true });
  const manifest = {
    name: 'workflow-service-cli',
    version: root.version,
    description:
      'wfs: the Workflow Service Toolkit headless: a sandbox of the service, billed workflow starts, a verifying webhook receiver and a receiver audit, for scripts and CI.',
    license: root.license,
    repository: root.repository,
    keywords: ['workflow-service', 'webhook', 'jwt', 'sandbox', 'cli'],
    bin: { wfs: 'cli.js' },
    exports: {
      './testkit': { types: './testkit.d.ts', import: './testkit.mjs', require: './testkit.cjs' },
      './schemas/*': './schemas/*',
      './package.json': './package.json',
    },
    files: [
      'cli.js',
      'wfs',
      'testkit.cjs',
      'testkit.mjs',
      'testkit.d.ts',
      'testkit.md',
      'agents.md',
      'schemas',
      'README.md',
      'LICENSE',
    ],
    engines: { node: root.engines.node },
  };
  writeFileSync(`${dir}/package.json`, JSON.stringify(manifest, null, 2) + '\n');
}

if (withTests) {
  rmSync('out', { recursive: true, force: true });
  const transpile = {
    outdir: 'out',
    outbase: '.',
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: 'inline',
    logLevel: 'warning',
  };
  // The CLI loads each command with import() (src/cli/commandList.ts); unbundled, that must become a require() of the
  // transpiled file. The tests' own import() of .mjs files (bench/) stays an import.
  await esbuild.build({ ...transpile, entryPoints: filesUnder('src', '.ts'), supported: { 'dynamic-import': false } });
  await esbuild.build({ ...transpile, entryPoints: filesUnder('test', '.ts') });
  // The receiver as it ships, for `npm run bench`: Receiver, Verifier and DeliveryHistory bundled and minified like the
  // production dist/. In out/ every call across modules goes through an export getter, which the bench would measure.
  await esbuild.build({
    ...common,
    minify: true,
    sourcemap: false,
    stdin: {
      contents:
        "export { Receiver } from './Receiver'; export { Verifier } from './Verifier'; export { DeliveryHistory } from './DeliveryHistory';",
      resolveDir: 'src/core/webhooks',
      loader: 'ts',
    },
    outfile: 'out/bench/receiverCore.js',
  });
  // Unbundled sources import ../../package.json (name and version); keep that path valid under out/.
  copyFileSync('package.json', 'out/package.json');

  // The extension the host suite runs (test/vscode/runOffline.mjs): the same manifest and media as the product, and
  // a bundle whose activate() hands the services to the suite. The product's dist/extension.js exports nothing.
  const host = 'out/host-extension';
  await esbuild.build({
    ...common,
    entryPoints: { extension: 'test/vscode/hostExtension/extension.ts' },
    outdir: `${host}/dist`,
    external: ['vscode'],
  });
  copyFileSync('package.json', `${host}/package.json`);
  // Its English: the manifest's %key%s and the l10n bundle, as the .vsix ships them.
  copyFileSync('package.nls.json', `${host}/package.nls.json`);
  if (existsSync('l10n')) cpSync('l10n', `${host}/l10n`, { recursive: true });
  cpSync('media', `${host}/media`, { recursive: true });
  // The CLI the extension offers as its MCP server (src/extension/assistant/mcpServerProvider.ts).
  copyFileSync('dist/cli.js', `${host}/dist/cli.js`);
  cpSync(CLI_CHUNKS, `${host}/dist/wfs`, { recursive: true });
}

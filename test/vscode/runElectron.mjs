// `npm run test:electron`: the same extension-host suite under @vscode/test-electron, for machines that can
// download VS Code (it fetches a VS Code build into .vscode-test/ on first run; not possible offline).
import { runTests } from '@vscode/test-electron';
import { join } from 'node:path';
import { projectRoot } from './harness/tools.mjs';

const root = projectRoot();
try {
  await runTests({
    // The host-suite build of the extension (esbuild.mjs --tests): its activate() hands the services to the suite.
    extensionDevelopmentPath: join(root, 'out', 'host-extension'),
    extensionTestsPath: join(root, 'out', 'test', 'vscode', 'index.js'),
    launchArgs: ['--disable-extensions', '--disable-workspace-trust'],
  });
} catch (err) {
  console.error(`Extension-host tests failed: ${err?.message ?? err}`);
  process.exit(1);
}

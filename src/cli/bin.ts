// The `wfs` executable (dist/cli.js): main.ts and what `wfs --help` needs, bundled as CommonJS. Each command's code is
// apart, in ES module chunks (dist/wfs/, esbuild.mjs) that commandList.ts loads with import() when the command runs
// or prints its help: `wfs --help` reads a few dozen KiB, and the MCP SDK, zod and ajv load for `wfs mcp` alone.
import { runProcess } from './main';

void runProcess(process.argv.slice(2));

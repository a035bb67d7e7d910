// The `wfs` executable (dist/cli.js): main.ts and what `wfs --help` needs, bundled as CommonJS. Each command's code is
// apart, in ES module chunks (dist/wfs/, esbuild.mjs) that commandList.ts loads with import() when the command runs
// or prints its help: `wfs --help` reads a few dozen KiB, and the MCP SDK, zod and ajv load for `wfs mcp` alone.
import { writeSync } from 'node:fs';
import { plainAnswer, runProcess } from './main';

const answer = plainAnswer(process.argv.slice(2));
if (answer === undefined) void runProcess(process.argv.slice(2));
else writePlain(answer);

/** Written straight to the descriptor: making process.stdout (a stream over a pipe) costs a fifth of Node's own
 * start-up, more than the rest of `wfs --help`. A reader already gone (EPIPE) has nothing left to hear. */
function writePlain(text: string): void {
  const bytes = Buffer.from(text);
  let at = 0;
  try {
    while (at < bytes.length) at += writeSync(1, bytes, at);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // A non-blocking stdout that is full: the stream, which waits for the reader, writes the rest.
    if (code === 'EAGAIN') process.stdout.write(bytes.subarray(at));
    else if (code !== 'EPIPE') throw err;
  }
}

// The load generators' shared input (loadgen.mjs, rawLoadgen.mjs): a JSON config file naming the URLs, the requests
// file and the counts, and the two slices of requests to send, warm-up then measured, as stored ({headers, body in
// base64}). Only the two slices stay alive: the whole file, kept, made every GC of the measured run slower.
import { readFileSync } from 'node:fs';

export function readLoadConfig(configFile) {
  const {
    urls,
    warmUrls,
    requestsFile,
    from = undefined,
    count,
    concurrency,
    warmup,
    waitForGo = false,
    blocks = false,
  } = JSON.parse(readFileSync(configFile, 'utf8'));
  const all = JSON.parse(readFileSync(requestsFile, 'utf8'));
  const start = from ?? warmup;
  return {
    urls,
    warmUrls,
    concurrency,
    waitForGo,
    blocks,
    warmList: all.slice(0, warmup),
    measuredList: all.slice(start, start + count),
  };
}

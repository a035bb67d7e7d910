// The receivers bench/bound.mjs compares, by name: made in its own process, or in a child of it (boundReceiver.mjs,
// --together). Each call makes a fresh receiver.
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  leastBoundedHistory,
  minimalVerifier,
  noHistory,
  ourReceiver,
  ourVerifierAlone,
  specMinimum,
  specMinimumWithHistory,
} from './receiverTargets.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

/** jwk: the key set's one public key; trust: the issuer entry; compareFile: another build's receiverCore.js, measured
 * as "compared" (or several, comma-separated: "compared", "compared2", ...). */
export function boundTargets({ jwk, trust, compareFile }) {
  const shipped = require(join(here, '..', 'out', 'bench', 'receiverCore.js'));
  const core = { receiver: shipped, verifier: shipped, history: shipped };
  const { SystemClock } = require(join(here, '..', 'out', 'src', 'core', 'time', 'clock.js'));
  const targets = {
    floor: () => minimalVerifier(jwk),
    specMinimum: () => specMinimum(jwk, trust),
    leastHistory: () => specMinimumWithHistory(jwk, trust),
    leastBounded: () => leastBoundedHistory(jwk, trust),
    ours: () => ourReceiver(core, trust, new SystemClock()),
    // Ours taken apart: the Receiver with a history that keeps nothing, and our Verifier behind the least handler.
    oursNoHistory: () => ourReceiver(core, trust, new SystemClock(), noHistory()),
    ourVerifier: () => ourVerifierAlone(core, trust, new SystemClock()),
  };
  // Several builds, comma-separated: "compared", "compared2", ...
  (compareFile ? compareFile.split(',') : []).forEach((file, i) => {
    const other = require(resolve(file));
    targets[i === 0 ? 'compared' : `compared${i + 1}`] = () =>
      ourReceiver({ receiver: other, verifier: other, history: other }, trust, new SystemClock());
  });
  return targets;
}

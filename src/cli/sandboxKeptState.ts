// A sandbox on a fixed port (`wfs sandbox --port P`, `wfs mcp --sandbox-port P`) keeps its signing keys and control
// secret in the user's state folder (core/sandbox/sandboxState.ts): started again on that port, it publishes the
// same key set and takes the same secret, so an app that trusts it and a `wfs listen` registered with it go on
// working. Port 0 (a free one) keeps nothing: its address changes anyway.
import { homedir } from 'node:os';
import type { JWK } from 'jose';
import type { Sandbox } from '../core/sandbox';
import {
  newControlSecret,
  readSandboxState,
  sandboxStateFile,
  SandboxStateError,
  userStateDir,
  writeSandboxState,
  type SandboxState,
} from '../core/sandbox';

export interface KeptState {
  /** What to give the Sandbox: the kept keys and secret, and how it tells of a rotation. */
  options: { kept?: SandboxState; onKeysChanged?: (keys: JWK[]) => Promise<void> };
  /** Where they are kept; undefined when nothing is (port 0, or a file that cannot be used). */
  file?: string;
  /** After start: writes what a first start made. */
  afterStart(sandbox: Sandbox): Promise<void>;
}

const NOTHING: KeptState = { options: {}, afterStart: async () => undefined };

/** `given`: a secret from the environment, which this start takes but which is never written to the file (a first
 * start keeps a new one there). */
export function keptSandboxState(
  env: NodeJS.ProcessEnv,
  port: number,
  warn: (message: string) => void,
  given?: string,
): KeptState {
  if (port === 0) return NOTHING;
  const file = sandboxStateFile(userStateDir(env, process.platform, homedir()), port);
  let kept: SandboxState | undefined;
  try {
    kept = readSandboxState(file);
  } catch (err) {
    if (!(err instanceof SandboxStateError)) throw err;
    warn(`${err.message}. This start uses a new signing key and secret, kept nowhere.`);
    return NOTHING;
  }
  const save = (state: SandboxState) =>
    writeSandboxState(file, state).catch((err: Error) =>
      warn(
        `the sandbox's key and secret could not be kept in ${file} (${(err as NodeJS.ErrnoException).code ?? err.message}): a restart on port ${port} will publish a new key set`,
      ),
    );
  let secret = kept?.controlSecret;
  return {
    file,
    options: { kept, onKeysChanged: (keys) => save({ keys, controlSecret: secret! }) },
    async afterStart(sandbox) {
      if (kept) return;
      secret = given === undefined ? sandbox.context.controlSecret : newControlSecret();
      await save({ keys: await sandbox.context.signer.exportKeys(), controlSecret: secret });
    },
  };
}

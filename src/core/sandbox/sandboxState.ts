// What a sandbox on a fixed port keeps across restarts: its signing keys and its control secret. An app trusts the
// key set at http://127.0.0.1:PORT/.well-known/jwks.json, and `wfs listen --trust-sandbox` holds the secret; with
// both kept, a restart on the same port changes neither, so the app's trust and the listener's registration survive.
// Kept in the user's state folder (never the workspace: a repository must not carry a private key), one file per
// port, mode 0600 in a folder of mode 0700, written through core/files (a new file renamed over the old one). A file
// another user could read is not used.
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { JWK } from 'jose';
import { replaceFileAtomically } from '../files';

/** Overrides where the state folder is (tests, CI, a second profile). */
export const STATE_DIR_ENV = 'WFS_STATE_DIR';
const STATE_FILE_MODE = 0o600;

export interface SandboxState {
  /** Private keys as JWKs (with kid), the current one first. */
  keys: JWK[];
  controlSecret: string;
}

/** The user's state folder for wfs: WFS_STATE_DIR; else $XDG_STATE_HOME/wfs or ~/.local/state/wfs (Linux and the
 * rest), ~/Library/Application Support/wfs (macOS), %LOCALAPPDATA%\wfs (Windows). */
export function userStateDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, home: string): string {
  const own = env[STATE_DIR_ENV]?.trim();
  if (own) return own;
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(home, 'AppData', 'Local'), 'wfs');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'wfs');
  const xdg = env.XDG_STATE_HOME?.trim();
  return join(xdg && isAbsolute(xdg) ? xdg : join(home, '.local', 'state'), 'wfs');
}

/** The file of the sandbox on `port`. */
export function sandboxStateFile(stateDir: string, port: number): string {
  return join(stateDir, 'sandbox', `port-${port}.json`);
}

export class SandboxStateError extends Error {}

/** The state kept for a port, or undefined when there is none yet. Throws SandboxStateError (saying what to do) for a
 * file that is not the user's alone, or not one this program wrote. */
export function readSandboxState(file: string): SandboxState | undefined {
  let text: string;
  try {
    const st = statSync(file);
    if (!st.isFile()) throw new SandboxStateError(`${file} is not a regular file: remove it`);
    const uid = process.getuid?.();
    if (process.platform !== 'win32' && ((uid !== undefined && st.uid !== uid) || st.mode & 0o077))
      throw new SandboxStateError(
        `${file} holds the sandbox's private key but others can read or own it (mode ${(st.mode & 0o777).toString(8)}): remove it, and a new one is made`,
      );
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (err instanceof SandboxStateError) throw err;
    throw new SandboxStateError(
      `${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    );
  }
  let parsed: { keys?: unknown; controlSecret?: unknown };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    throw new SandboxStateError(`${file} is not JSON: remove it, and a new one is made`);
  }
  const keys = Array.isArray(parsed.keys) ? (parsed.keys as JWK[]) : [];
  const usable = keys.length > 0 && keys.every((k) => k && k.kty === 'RSA' && typeof k.d === 'string');
  if (!usable || typeof parsed.controlSecret !== 'string' || !/^[0-9a-f]{64}$/.test(parsed.controlSecret))
    throw new SandboxStateError(`${file} is not a sandbox's kept state: remove it, and a new one is made`);
  return { keys, controlSecret: parsed.controlSecret };
}

/** Writes the state for a port: the folder made private, the file replaced whole with mode 0600. */
export async function writeSandboxState(file: string, state: SandboxState): Promise<void> {
  mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
  const text = JSON.stringify({ keys: state.keys, controlSecret: state.controlSecret }) + '\n';
  await replaceFileAtomically(file, (h) => h.writeFile(text), { mode: STATE_FILE_MODE, sync: true });
}

// A sandbox on a free loopback port with a virtual clock, plus helpers to call it as a client would.
import { ManualClock } from './manualClock';
import { Sandbox, type SandboxInfo, type SandboxOptions } from '../../../src/core/sandbox/Sandbox';
import { REFRESH_PATH, SIGN_IN_PATH } from '../../../src/core/http/paths';
import { rawRequest, type RawResponse } from './rawHttp';
import type { ProbeTarget } from '../../../src/core/probe/runProbe';

export interface SandboxFixture {
  sandbox: Sandbox;
  info: SandboxInfo;
  clock: ManualClock;
  url(path: string): string;
  signIn(extra?: Record<string, unknown>): Promise<{ access_token: string; refresh_token: string; expires_in: number }>;
  call(
    path: string,
    opts?: { method?: string; token?: string; json?: unknown; body?: string; headers?: Record<string, string> },
  ): Promise<RawResponse>;
  /** Calls the control API as the sandbox's owner: with its secret, and a JSON content type when there is a body. */
  control(method: string, path: string, json?: unknown): Promise<RawResponse>;
  stop(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxFixture> {
  const clock = new ManualClock();
  const sandbox = new Sandbox({ port: 0, clock, ...options });
  const info = await sandbox.start();
  const url = (path: string) => info.baseUrl + path;
  const fixture: SandboxFixture = {
    sandbox,
    info,
    clock,
    url,
    async signIn(extra = {}) {
      const res = await rawRequest(url(SIGN_IN_PATH), {
        json: { username: info.username, password: info.password, ...extra },
      });
      if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
      return res.json();
    },
    async call(path, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.token) headers.authorization = `Bearer ${opts.token}`;
      const method = opts.method ?? (opts.json !== undefined || opts.body !== undefined ? 'POST' : 'GET');
      if (method === 'POST' && !('content-type' in headers)) headers['content-type'] = 'application/json';
      return rawRequest(url(path), { method, headers, json: opts.json, body: opts.body });
    },
    control(method, path, json) {
      return rawRequest(url('/sandbox/' + path), {
        method,
        json,
        headers: {
          'x-sandbox-secret': info.controlSecret,
          ...(method === 'POST' || method === 'PUT' ? { 'content-type': 'application/json' } : {}),
        },
      });
    },
    stop: () => sandbox.stop(),
  };
  return fixture;
}

export { REFRESH_PATH, SIGN_IN_PATH };

/** The contract check's target for a sandbox, as a user of the built-in one fills it in; `extra` overrides. */
export function probeTargetOf(info: SandboxInfo, extra: Partial<ProbeTarget> = {}): ProbeTarget {
  return {
    baseUrl: info.baseUrl,
    testWebhookUrl: info.testWebhookUrl,
    credentials: { username: info.username, password: info.password },
    aliasPlacement: 'body',
    jwksUrls: [],
    isLocalSandbox: true,
    ...extra,
  };
}

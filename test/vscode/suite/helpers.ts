// Shared by the extension-host suites: the extension's API and event-driven waits (no fixed sleeps).
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../hostExtension/extension';
import type { Environment } from '../../../src/core/environments/environment';
import type { DeliveryRecord } from '../../../src/core/webhooks/deliveryRecord';
import { secretKeyFor } from '../../../src/core/auth/TokenManager';
import { passwordKeyFor } from '../../../src/core/auth/secretScope';

export const EXTENSION_ID = 'workflow-service-toolkit.workflow-service-toolkit';

export async function extensionApi(): Promise<ExtensionApi> {
  return vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID)!.activate();
}

/** Resolves when `check` holds, re-checking on each `event`; fails after `timeoutMs` naming what was awaited. */
export function until(
  event: vscode.Event<unknown>,
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 20_000,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let done = false;
    const finish = (err?: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      sub.dispose();
      err ? reject(err) : resolve();
    };
    const test = async () => {
      try {
        if (await check()) finish();
      } catch (err) {
        finish(err as Error);
      }
    };
    const timer = setTimeout(() => finish(new Error(`timed out waiting for ${what}`)), timeoutMs);
    const sub = event(() => void test());
    void test();
  });
}

export async function setSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('wfs').update(key, value, vscode.ConfigurationTarget.Global);
}

/** Where an environment's tokens and remembered password are stored: bound to its name and current origins. */
export function tokensKey(api: ExtensionApi, name: string): string {
  return secretKeyFor(api.environments.get(name)!.key);
}

export function passwordKey(api: ExtensionApi, name: string): string {
  return passwordKeyFor(api.environments.get(name)!.key);
}

/** A modal's question as the extension asked it, for answerModals. */
export interface ModalQuestion {
  message: string;
  detail?: string;
  items: string[];
}

/** Answers the extension's modal warnings with `answer` (a button's label, or undefined for Cancel) until the
 * returned function is called; other warnings go to VS Code as usual. A test host refuses to show a modal, so this
 * is how a suite plays the user who reads one and clicks. */
export function answerModals(
  api: ExtensionApi,
  answer: (q: ModalQuestion) => Promise<string | undefined> | string | undefined,
): () => void {
  const window = api.window as { showWarningMessage: (...args: unknown[]) => Thenable<unknown> };
  const original = window.showWarningMessage;
  window.showWarningMessage = (message: unknown, ...rest: unknown[]) => {
    const options = rest[0] as vscode.MessageOptions | undefined;
    if (typeof options !== 'object' || !options?.modal) return original.call(api.window, message, ...rest);
    const items = rest.slice(1).map((i) => (typeof i === 'string' ? i : (i as vscode.MessageItem).title));
    return Promise.resolve(answer({ message: String(message), detail: options.detail, items }));
  };
  return () => {
    window.showWarningMessage = original;
  };
}

/** The Environment value a name resolves to now (the APIs take values, never names); fails when it resolves to
 * nothing. */
export function envValue(api: ExtensionApi, envName: string): Environment {
  const env = api.environments.get(envName);
  if (!env) throw new Error(`${envName} does not resolve (the sandbox stopped, or not in wfs.environments)`);
  return env;
}

/**
 * A loopback relay between the extension and a sandbox at `baseUrl`: each request is passed on with the headers the
 * service reads, and the sandbox's answer sent back, unless `intercept` (called once the sandbox has answered, so the
 * request did reach it) takes the response itself (holds it, cuts the connection or answers otherwise) and returns
 * true. The caller closes `server`.
 */
export async function startSandboxRelay(
  baseUrl: string,
  intercept: (req: IncomingMessage, res: ServerResponse) => boolean,
): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const headers: Record<string, string> = {};
      for (const h of ['content-type', 'authorization', 'accept', 'x-svc-useralias'])
        if (typeof req.headers[h] === 'string') headers[h] = req.headers[h] as string;
      const answer = await fetch(baseUrl + req.url, {
        method: req.method,
        headers,
        body: req.method === 'GET' ? undefined : Buffer.concat(chunks),
      });
      const body = Buffer.from(await answer.arrayBuffer());
      if (intercept(req, res)) return;
      res
        .writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' })
        .end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Makes `url` the one configured environment `name`, switches to it and signs in: how a test puts a relay between
 * the extension and its sandbox. */
export async function signInThrough(
  api: ExtensionApi,
  name: string,
  url: string,
  user: { username: string; password: string },
): Promise<void> {
  await setSetting('environments', [{ name, baseUrl: url }]);
  await until(api.environments.onDidChange, () => !!api.environments.get(name), `the ${name} environment`);
  await vscode.commands.executeCommand('wfs.switchEnvironment', name);
  const signedIn = await vscode.commands.executeCommand('wfs.signIn', {
    environment: name,
    username: user.username,
    password: user.password,
  });
  assert.equal(signedIn, true);
}

/** The built-in sandbox as the environment in use, started, and signed in as its demo user. */
export async function signInToSandbox(): Promise<void> {
  await vscode.commands.executeCommand('wfs.switchEnvironment', 'Sandbox');
  await vscode.commands.executeCommand('wfs.startSandbox');
  assert.equal(
    await vscode.commands.executeCommand('wfs.signIn', { username: 'demo', password: 'demo-password' }),
    true,
  );
}

/** A sandbox started afresh, signed in, and the receiver running: its local address. */
export async function freshSandboxAndReceiver(): Promise<string> {
  await vscode.commands.executeCommand('wfs.switchEnvironment', 'Sandbox');
  await vscode.commands.executeCommand('wfs.stopSandbox');
  await signInToSandbox();
  return ((await vscode.commands.executeCommand('wfs.startReceiver')) as { localUrl: string }).localUrl;
}

/** The record of the delivery `send` makes to the extension's receiver, once the receiver has it. */
export async function deliveredBy(api: ExtensionApi, send: () => PromiseLike<unknown>): Promise<DeliveryRecord> {
  const before = api.receiver.deliveries.all().length;
  await send();
  await until(api.receiver.onDidReceive, () => api.receiver.deliveries.all().length > before, 'a delivery');
  return api.receiver.deliveries.all().at(-1)!;
}

// Shared by the extension-host suites: the extension's API and event-driven waits (no fixed sleeps).
import * as vscode from 'vscode';
import type { ExtensionApi } from '../hostExtension/extension';
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

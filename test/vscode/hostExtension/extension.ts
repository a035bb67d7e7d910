// The extension the host suite runs: the product's composition and deactivate, plus an activate() that hands the
// services to the suite. It is bundled into out/host-extension/ (esbuild.mjs --tests) next to a copy of the
// manifest and media, so the shipped dist/extension.js keeps exporting nothing.
import * as vscode from 'vscode';
import { compose, type Composition } from '../../../src/extension/composition';

/** What the suite observes: the composed services, the extension's SecretStorage and its subscriptions. */
export interface ExtensionApi extends Composition {
  secrets: vscode.SecretStorage;
  /** context.subscriptions: what VS Code disposes on deactivate (the lifecycle test disposes it itself). */
  subscriptions: readonly vscode.Disposable[];
  /** The `vscode.window` this extension calls (each extension gets its own API object): a test host refuses to
   * show modal dialogs, so a suite that must answer one answers it here (helpers.ts answerModals). */
  window: typeof vscode.window;
  /** Composes the services again on the same context, into this same object, after a test deactivated them and
   * disposed the subscriptions (as a window reload would): every suite, in any order, finds a working extension. */
  recompose(): void;
}

export function activate(context: vscode.ExtensionContext): ExtensionApi {
  const api: ExtensionApi = {
    ...compose(context),
    secrets: context.secrets,
    subscriptions: context.subscriptions,
    window: vscode.window,
    recompose: () => {
      context.subscriptions.splice(0);
      Object.assign(api, compose(context));
    },
  };
  return api;
}

export { deactivate } from '../../../src/extension/composition';

// Types for the webview scripts, checked by `npm run typecheck` (media/panel/tsconfig.json); not shipped.
import type { PanelRequest } from '../../src/extension/panel/panelProtocol';

declare global {
  interface WebviewApi<Request> {
    postMessage(message: Request): void;
    getState(): any;
    setState(state: unknown): void;
  }
  function acquireVsCodeApi(): WebviewApi<PanelRequest>;
  interface Window {
    wfsDom: {
      el(tag: string, text?: unknown, cls?: string, attrs?: Record<string, unknown>): HTMLElement;
      kvTable(pairs: [string, unknown][]): HTMLElement;
    };
  }
}

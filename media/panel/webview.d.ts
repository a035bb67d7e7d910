// Types for the webview scripts, checked by `npm run typecheck` (media/panel/tsconfig.json); not shipped.
import type { PanelRequest } from '../../src/extension/panel/panelProtocol';

declare global {
  interface WebviewApi<Request> {
    postMessage(message: Request): void;
    getState(): any;
    setState(state: unknown): void;
  }
  /** The panel's requests unless the script's own annotation names its protocol (audit.js: AuditRequest). */
  function acquireVsCodeApi<Request = PanelRequest>(): WebviewApi<Request>;
  interface Window {
    wfsL10n: { t(message: string, ...args: unknown[]): string };
    /** typeAhead.js: the delivery list's type-ahead, a pure function of what was typed and when. */
    wfsTypeAhead: {
      RESET_MS: number;
      NOT_TYPING: { typed: string; at: number };
      typeAhead(
        typing: { typed: string; at: number },
        key: string,
        now: number,
        from: number,
        topics: ArrayLike<string | undefined>,
      ): { typing: { typed: string; at: number }; row: number };
    };
    wfsDom: {
      el(tag: string, text?: unknown, cls?: string, attrs?: Record<string, unknown>): HTMLElement;
      kvTable(pairs: [string, unknown][]): HTMLElement;
    };
  }
}

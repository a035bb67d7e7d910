// Plain-Node unit tests of the extension's display modules, which translate through vscode.l10n.t: a stand-in
// `vscode` module whose l10n.t fills the placeholders of the English message, as VS Code does with no bundle loaded,
// or of a bundle's message once a test calls wordWith(bundle) (a pseudo-locale). The few UI classes a tree item or
// a status bar item is made of are plain holders of what the code sets. Import it before the module under test.
import Module from 'node:module';

/** The bundle l10n.t looks messages up in; undefined: English. */
let bundle: Record<string, string> | undefined;

/** Words every message through `b` (undefined: back to English) until called again. */
export function wordWith(b: Record<string, string> | undefined): void {
  bundle = b;
}

class TreeItem {
  id?: string;
  description?: string;
  tooltip?: unknown;
  iconPath?: unknown;
  contextValue?: string;
  command?: unknown;
  accessibilityInformation?: { label: string };
  constructor(
    public label: string,
    public collapsibleState?: number,
  ) {}
}

/** A status bar item as the stand-in window makes it: what was set, and whether it shows. */
export interface StandInStatusBarItem {
  text: string;
  tooltip?: unknown;
  name?: string;
  command?: unknown;
  accessibilityInformation?: { label: string };
  backgroundColor?: unknown;
  shown: boolean;
}

const standIn = {
  l10n: {
    t: (message: string, ...args: unknown[]) =>
      (bundle?.[message] ?? message).replace(/\{(\d+)\}/g, (m, i: string) =>
        args[Number(i)] === undefined ? m : String(args[Number(i)]),
      ),
  },
  TreeItem,
  TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
  ThemeIcon: class {
    constructor(
      public id: string,
      public color?: unknown,
    ) {}
  },
  ThemeColor: class {
    constructor(public id: string) {}
  },
  StatusBarAlignment: { Left: 1, Right: 2 },
  window: {
    createStatusBarItem: () => {
      const item: StandInStatusBarItem & { show(): void; hide(): void; dispose(): void } = {
        text: '',
        shown: false,
        show: () => void (item.shown = true),
        hide: () => void (item.shown = false),
        dispose: () => undefined,
      };
      return item;
    },
  },
};

const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
const original = loader._load;
loader._load = function (request: string, ...rest: unknown[]) {
  return request === 'vscode' ? standIn : original.call(this, request, ...rest);
};

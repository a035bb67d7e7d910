// Plain-Node unit tests of the extension's display modules, which translate through vscode.l10n.t: a stand-in
// `vscode` module whose l10n.t fills the placeholders of the English message, as VS Code does with no bundle loaded.
// Import it before the module under test.
import Module from 'node:module';

const standIn = {
  l10n: {
    t: (message: string, ...args: unknown[]) =>
      message.replace(/\{(\d+)\}/g, (m, i: string) => (args[Number(i)] === undefined ? m : String(args[Number(i)]))),
  },
};

const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
const original = loader._load;
loader._load = function (request: string, ...rest: unknown[]) {
  return request === 'vscode' ? standIn : original.call(this, request, ...rest);
};

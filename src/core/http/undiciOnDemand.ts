// undici, read at the first request rather than when a command starts: evaluating it (and the web globals it touches)
// is about a quarter of `wfs mcp`'s time to its ready line, and `wfs sandbox` or an idle receiver may never send.

import type * as UndiciModule from 'undici';

type Undici = typeof UndiciModule;

// The one load, shared: `import()` again for every request would cost each one a lookup (in the extension's CommonJS
// bundle, a copy of undici's ~100 exports). It holds a module, which never changes, so no state leaks between users.
let loading: Promise<Undici> | undefined;

export function undici(): Promise<Undici> {
  // undici is CommonJS: imported from the CLI's ES module chunks it is the namespace's `default` alone.
  return (loading ??= import('undici').then((m) => (m as unknown as { default?: Undici }).default ?? m));
}

// close() of what the kit starts: the first call does the work, every later one (and `await using` after an explicit
// close) gets the same promise.
export function onceOnly(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
}

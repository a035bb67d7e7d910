// Waiting for I/O in flight without wall-clock sleeps: yield to the event loop until a condition holds.

export async function untilTrue(
  cond: () => boolean,
  failure: () => string = () => 'condition not reached',
  maxTurns = 20_000,
): Promise<void> {
  for (let i = 0; i < maxTurns; i++) {
    if (cond()) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(failure());
}

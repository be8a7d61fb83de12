// Waiting in tests for something to happen, never for a time: `until(cond)`
// polls the event loop until `cond()` holds and, if it never does, fails
// naming what never happened. The limit is generous (a busy 2-core CI
// machine), and reaching it is a failure, not a measurement.

/** Resolves when `cond()` holds; rejects after `maxMs` naming `what`. */
export async function until(cond: () => boolean, what = 'condition', maxMs = 20_000): Promise<void> {
  const end = Date.now() + maxMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

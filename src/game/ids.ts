// Names the table gives a game: its id ("20261125-214307-001", unique across
// restarts) and the PDN Date tag ("2026.11.25"), both from the injected clock.

/** "2026.11.25": the PDN Date of a time (UTC). */
export function formatDate(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}.${p(d.getUTCMonth() + 1)}.${p(d.getUTCDate())}`;
}

/**
 * Game ids "20261125-214307-001": the time and a number that counts this
 * session's games. The count starts where the wall clock's milliseconds are
 * (not at 1), so a session started again within the same second (a restart)
 * does not hand out the id of a game it saved before.
 */
export function gameIds(start = Date.now() % 1000): (ms: number) => string {
  let n = start;
  return (ms) => {
    const d = new Date(ms);
    const p = (x: number, w = 2) => String(x).padStart(w, '0');
    n = (n + 1) % 1000;
    return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}-${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}-${p(n, 3)}`;
  };
}

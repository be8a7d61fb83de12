// Which commands a station runs. A command reaches it sealed (envelope.ts) on
// its own board's cmd topic — so bound to that board — and it runs only one
// sealed by the hub it paired with (its pinned key), within the time window,
// with a counter above the last command it ran (kept on disk, so a restart
// does not reopen an old command). A request to send records again may also
// come from the far board of a game between two boards (its pinned key): it
// changes nothing. Pure: keys, counters and time are inputs.

export interface GuardKeys {
  /** the hub's pinned key (null: not paired yet) */
  hub: string | null;
  /** far boards' pinned keys (a game between two boards) */
  peers: readonly string[];
  /** the counter of the last command run */
  lastRun: number;
}

/** How far a command's counter (its sender's clock, µs) may be from this station's clock (default 60 s). */
export const COMMAND_WINDOW_MS = 60_000;

/** null when the command may run, else why it is refused. */
export function commandRefusal(
  sealed: { key: string; n: number },
  kind: 'command' | 'resend',
  keys: GuardKeys,
  now: number,
  windowMs = COMMAND_WINDOW_MS,
): string | null {
  const byHub = keys.hub !== null && sealed.key === keys.hub;
  if (!byHub && !(kind === 'resend' && keys.peers.includes(sealed.key)))
    return keys.hub === null
      ? 'this station has not paired with a hub yet: no command is run until it has'
      : 'it is not signed by the hub this station paired with';
  const at = sealed.n / 1000;
  if (Math.abs(now - at) > windowMs)
    return `it was signed ${Math.round((now - at) / 1000)} s from now, outside the ${windowMs / 1000} s window`;
  if (kind === 'command' && sealed.n <= keys.lastRun) return 'it is not newer than the last command run (a replay)';
  return null;
}

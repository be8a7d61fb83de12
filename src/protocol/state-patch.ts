// The page's state on the wire as what changed: each event's message carries
// the parts of the snapshot that differ from what that page was last sent
// (whole top-level parts, and the move list as a kept prefix plus the moves
// after it) instead of the whole game again, so a move costs the same bytes
// at ply 10 as at ply 100. Pure, shared by the server (src/server/broadcast.ts
// works out each page's patch) and the page (src/web/state.ts folds it); the
// schema is v1.ts's StatePatch.

import type { Snapshot, StatePatch } from './v1.ts';

/** A snapshot as sent: each top-level part's JSON, and each move's (the moves apart). */
export interface Sent {
  readonly parts: ReadonlyMap<string, string>;
  readonly moves: readonly string[];
}

/** What a page holds once it has been sent `snap` (the texts compared next time). */
export function sentOf(snap: Snapshot): Sent {
  const parts = new Map<string, string>();
  for (const [k, v] of Object.entries(snap)) if (k !== 'moves' && v !== undefined) parts.set(k, JSON.stringify(v));
  return { parts, moves: snap.moves.map((m) => JSON.stringify(m)) };
}

/** What turns the state a page was sent (`before`) into `snap` (`after` = sentOf(snap)), without its revisions. */
export function diffState(before: Sent, after: Sent, snap: Snapshot): Omit<StatePatch, 'base' | 'rev'> {
  const set: Record<string, unknown> = {};
  for (const [k, text] of after.parts) if (before.parts.get(k) !== text) set[k] = snap[k as keyof Snapshot];
  const unset = [...before.parts.keys()].filter((k) => !after.parts.has(k));
  let keep = 0;
  const most = Math.min(before.moves.length, after.moves.length);
  while (keep < most && before.moves[keep] === after.moves[keep]) keep++;
  const moves = keep === before.moves.length && keep === after.moves.length ? null : { keep, add: snap.moves.slice(keep) };
  return { set: set as StatePatch['set'], ...(unset.length ? { unset } : {}), ...(moves ? { moves } : {}) };
}

/** The snapshot a patch makes of the one it was worked out against (the caller checks `patch.base` first). */
export function applyPatch(snap: Snapshot, patch: StatePatch): Snapshot {
  const out: Record<string, unknown> = { ...snap, ...patch.set };
  for (const k of patch.unset ?? []) if (k !== 'moves' && k in out) delete out[k];
  if (patch.moves) out.moves = [...snap.moves.slice(0, patch.moves.keep), ...patch.moves.add];
  return out as Snapshot;
}

/**
 * The state a page holds after a message that carries one: its whole
 * snapshot, or its patch on the state held — null when the patch was worked
 * out against another revision than the one held (the page then asks for
 * the whole state again).
 */
export function foldState(
  held: { snap: Snapshot | null; rev: number | null },
  msg: { state?: Snapshot; patch?: StatePatch; rev?: number },
): { snap: Snapshot; rev: number | null } | null {
  if (msg.state) return { snap: msg.state, rev: msg.rev ?? null };
  if (!msg.patch || !held.snap || held.rev !== msg.patch.base) return null;
  return { snap: applyPatch(held.snap, msg.patch), rev: msg.patch.rev };
}

// The games of the broadcast (GET /broadcast.pdn when no tournament round is
// running), by board number: each board's game as its PDN. A station's game
// (a hub's mirror room) carries the tags club mode's boards get from the
// service — the hub's Event, Site, Round and players where the station's game
// has none, and Board, its number on the hub — so a relay reads a hub's
// broadcast as a club's. A game between two of the hub's boards (each
// station playing the other: the same players, start and moves, each with the
// far side played at the other board) is one game: listed once, at the lower
// board's number, from the board whose record is furthest on.

import { makeFen } from '../rules/index.ts';
import { pdnRecord } from '../game/index.ts';
import { makePdn } from '../pdn/index.ts';
import type { Room } from './room.ts';

/** Two boards playing one game between them: each plays the side the other's player has, the same names, start and moves so far. */
export function sameRemoteGame(a: Room, b: Room): boolean {
  if (!a.mirror || !b.mirror) return false;
  const [sa, sb] = [a.session, b.session];
  const [ra, rb] = [sa.table.remote, sb.table.remote];
  if (!ra || !rb || ra.side === rb.side) return false;
  if ((sa.tags.Black ?? '') !== (sb.tags.Black ?? '') || (sa.tags.White ?? '') !== (sb.tags.White ?? '')) return false;
  if (makeFen(sa.game.start) !== makeFen(sb.game.start)) return false;
  const [pa, pb] = [sa.game.plies, sb.game.plies];
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const [ma, mb] = [pa[i]!.move, pb[i]!.move];
    if (ma.from !== mb.from || ma.path.join('-') !== mb.path.join('-')) return false;
  }
  return true;
}

/** Of two records of one game, the one further on (more moves, then a result), else the first. */
function furthest(a: Room, b: Room): Room {
  const [na, nb] = [a.session.game.plies.length, b.session.game.plies.length];
  if (na !== nb) return na > nb ? a : b;
  return a.session.result === '*' && b.session.result !== '*' ? b : a;
}

/** A board's game as the broadcast has it: a station's with the service's tags it lacks (those of `at`, the board it is listed at). */
export function broadcastGame(room: Room, at: Room = room): string {
  if (!room.mirror) return room.session.pdn();
  const record = pdnRecord(room.session.table);
  const has = new Set(record.tags.map(([k]) => k));
  const extra = Object.entries(at.serviceTags).filter(([k]) => !has.has(k));
  return makePdn(extra.length ? { ...record, tags: [...record.tags, ...extra] } : record);
}

/** Every board's game by number, a game between two of them once. */
export function broadcastPdn(rooms: readonly Room[]): string {
  const sorted = [...rooms].sort((a, b) => a.number - b.number);
  const listed = new Set<Room>();
  const games: string[] = [];
  for (const room of sorted) {
    if (listed.has(room)) continue;
    listed.add(room);
    const partner = sorted.find((r) => !listed.has(r) && sameRemoteGame(room, r));
    if (partner) listed.add(partner);
    games.push(broadcastGame(partner ? furthest(room, partner) : room, room));
  }
  return games.join('\n');
}

// The games of the broadcast (GET /broadcast.pdn), by board number: each
// board's game as its PDN. A station's game (a hub's mirror room) carries the
// tags club mode's boards get from the service — the hub's Event, Site, Round
// and players where the station's game has none, and Board, its number on the
// hub — so a relay reads a hub's broadcast as a club's, a tournament round's
// too (live or saved). A game between two of the hub's boards is one game:
// listed once, at the lower board's number, from the board whose record is
// furthest on — the two are paired by what their stations say, not by
// likeness: each names the other's board and the other's game it is linked
// to (its retained game message), and the pair names each other. Each
// board's text is the one its room keeps (made once per change of its record:
// room-record.ts), so a change on one board makes that board's text alone.

import type { Room } from './room.ts';

/**
 * Two boards playing one game between them, as their stations say: each one's current game names the other
 * board as its far board, and at least one names the other's current game as the one it is linked to.
 */
export function sameRemoteGame(a: Room, b: Room): boolean {
  // (Only a station's board has a far board: its station says so.)
  const [fa, fb] = [a.farGame, b.farGame];
  if (!fa || !fb || fa.gameId !== a.session.gameId || fb.gameId !== b.session.gameId) return false; // (a word on an older game)
  if (fa.far.board !== b.board?.identity.id || fb.far.board !== a.board?.identity.id) return false;
  return fa.far.gameId === fb.gameId || fb.far.gameId === fa.gameId;
}

/** Of two records of one game, the one further on (more moves, then a result), else the first. */
function furthest(a: Room, b: Room): Room {
  const [na, nb] = [a.session.game.plies.length, b.session.game.plies.length];
  if (na !== nb) return na > nb ? a : b;
  return a.session.result === '*' && b.session.result !== '*' ? b : a;
}

/** A board's game as the broadcast has it: a station's with the service's tags it lacks (those of `at`, the board it is listed at). */
export function broadcastGame(room: Room, at: Room = room): string {
  return room.broadcastText(at);
}

/** One game of a board for a tournament round's broadcast: live, or its saved record; a station's with the hub's tags, as above. */
export async function roundGame(room: Room, gameId: string): Promise<string | null> {
  if (room.session.gameId === gameId) return room.broadcastText();
  const text = await room.store.readPdn(gameId);
  return text && room.games.savedPdn(text, room.serviceTags);
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

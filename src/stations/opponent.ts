// A game between two boards far apart (#22 item 5): the other board's player
// is this game's player "at another board" (src/game/remote.ts). The other
// station's journal records (its entries topic on the broker both reach) are
// replayed into its plies; the next ply of this game, when it is theirs, is
// handed to the session as their move (with their clock after it, once that
// record is in), shown and spoken by name, carried out on this board and
// checked against exactly it; both journals hold the same moves. A copy or a
// ply already played is dropped by the session; a record missing from the
// other board's stream is asked for again.

import type { MqttClient } from 'mqtt';
import { Game, parseFen, type Color, type GameOptions } from '../rules/index.ts';
import type { JournalEntry } from '../storage/journal.ts';
import type { RemotePly } from '../game/remote.ts';
import { boardTopic } from './topics.ts';
import { parseStationMessage } from './messages.ts';
import { signCommand } from './signing.ts';

/** A ply of the other board's game: who made it, its squares, the mover's clock after it (undefined: no clock, or its record not in yet). */
interface FarPly {
  side: Color;
  path: number[];
  clockMs?: number;
}

/** The other station's board, followed through the broker: its game's plies, handed on one at a time as they become due here. */
export class FarBoard {
  /** the other board's current game: its records by seq (record 0 its start) */
  private game: { id: string; entries: (JournalEntry | undefined)[] } | null = null;
  private client: MqttClient | null = null;
  /** where their moves go (the station's session), how many plies this game has, and the side they play (null: not followed yet) */
  private target: { deliver: (p: RemotePly) => void; plies: () => number; side: Color } | null = null;

  constructor(
    readonly board: string,
    private readonly secret?: string,
  ) {}

  /** Follows the other board's records through this station's broker connection. */
  attach(client: MqttClient): void {
    this.client = client;
    const topics = [boardTopic(this.board, 'entries'), boardTopic(this.board, 'game')];
    client.on('connect', () => client.subscribe(topics, { qos: 1 }));
    if (client.connected) client.subscribe(topics, { qos: 1 });
    client.on('message', (t, payload) => {
      if (t === topics[0]) {
        const r = parseStationMessage('entries', payload);
        if (r.ok) this.record(r.msg.gameId, r.msg.seq, r.msg.entry);
      } else if (t === topics[1]) {
        // The retained header: the game's start even when its first records went out before this board listened; the rest is asked for.
        const r = parseStationMessage('game', payload);
        if (!r.ok || !r.msg.start) return;
        if (this.game?.id !== r.msg.gameId) this.record(r.msg.gameId, 0, r.msg.start);
        this.askMissing(r.msg.gameId, r.msg.count);
      }
    });
  }

  /** Asks the other station for the records of its game this board lacks (signed with the pairing secret both share). */
  private askMissing(gameId: string, count: number): void {
    const g = this.game;
    if (!g || g.id !== gameId || !this.secret) return;
    let from = 0;
    while (from < count && g.entries[from]) from++;
    if (from >= count) return;
    const body = JSON.stringify({ kind: 'resend', gameId, from, to: count });
    this.client?.publish(boardTopic(this.board, 'cmd'), JSON.stringify(signCommand(this.secret, body, Date.now())), { qos: 1 });
  }

  /**
   * Their moves (`side`'s) go to `deliver` (the session's remoteMove); `plies`
   * is this game's ply count. Each record offers the next ply; call `offer()`
   * too whenever this game's plies change.
   */
  follow(deliver: (p: RemotePly) => void, plies: () => number, side: Color): void {
    this.target = { deliver, plies, side };
    this.offer();
  }

  record(gameId: string, seq: number, entry: JournalEntry): void {
    if (entry.k === 'new') this.game = { id: gameId, entries: [entry] };
    else if (this.game?.id === gameId) this.game.entries[seq] = entry;
    this.offer();
  }

  /** Hands on the next ply of this game if the other board has made it (theirs, and complete). */
  offer(): void {
    const to = this.target;
    if (!to) return;
    const n = to.plies();
    const next = this.farPlies()[n];
    if (!next || next.side !== to.side) return;
    // With a clock, their move comes with their time after it (the record after the move's): wait for it.
    if (this.timed && next.clockMs === undefined) return;
    to.deliver({ ply: n, path: next.path, ...(next.clockMs !== undefined ? { clockMs: next.clockMs } : {}) });
  }

  /** The other board's game has a time control (its start's TimeControl tag). */
  private get timed(): boolean {
    const first = this.game?.entries[0];
    return first?.k === 'new' && !!first.tags.TimeControl && first.tags.TimeControl !== '-';
  }

  /** Each ply of the other board's game so far (up to a gap in its records), with the mover's clock after it. */
  private farPlies(): FarPly[] {
    const first = this.game?.entries[0];
    if (!first || first.k !== 'new') return [];
    const game = new Game(parseFen(first.fen, { allowUncrownedMen: true }), first.options as GameOptions);
    const out: FarPly[] = [];
    const play = (path: readonly number[]): boolean => {
      const m = game
        .legalMoves()
        .find((x) => x.from === path[0] && x.path.length === path.length - 1 && x.path.every((p, i) => p === path[i + 1]));
      if (!m) return false;
      out.length = game.plies.length;
      out.push({ side: game.turn, path: [...path] });
      game.play(m);
      return true;
    };
    for (const p of first.moves) play(p);
    for (let i = 1; i < this.game!.entries.length; i++) {
      const e = this.game!.entries[i];
      if (!e) break; // the records after a gap wait for it
      if (e.k === 'move' && !play(e.path)) break;
      else if (e.k === 'takeback') {
        game.undo();
        out.length = game.plies.length;
      } else if (e.k === 'clock') {
        const last = out[game.plies.length - 1];
        if (last && last.clockMs === undefined) last.clockMs = e.clock.remaining[last.side];
      }
    }
    return out;
  }
}

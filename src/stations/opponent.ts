// A game between two boards far apart (#22 item 5): the other board's player
// stands where the computer opponent does. Each station's session plays "the
// computer" for the far side, and its moves come from here instead of the
// engine: the other station's journal records (its entries topic on the
// broker both reach) replayed into positions, and each request answered with
// the move the other board made from that position. So the far move is shown,
// spoken and sounded as the computer's is, carried out on this board, and
// checked against exactly it; both journals hold the same moves.

import type { MqttClient } from 'mqtt';
import type { EngineRequest, EngineResult, Think } from '../engine/port.ts';
import { Game, makeFen, parseFen, type GameOptions, type Move } from '../rules/index.ts';
import type { JournalEntry } from '../storage/journal.ts';
import { boardTopic } from './topics.ts';
import { parseStationMessage } from './messages.ts';
import { signCommand } from './signing.ts';

interface Waiting {
  fen: string;
  resolve: (r: EngineResult | null) => void;
}

export class RemoteOpponent {
  /** the other board's current game: its records by seq (record 0 its start) */
  private game: { id: string; entries: (JournalEntry | undefined)[] } | null = null;
  private waiting: Waiting[] = [];
  private client: MqttClient | null = null;

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

  /** The think the session's "computer" uses: resolves with the other board's move from this position, once it is made. */
  readonly think: Think = (req: EngineRequest) =>
    new Promise<EngineResult | null>((resolve) => {
      this.waiting.push({ fen: makeFen(req.position), resolve });
      this.answer();
    });

  /** The session no longer wants the answer (a takeback, a new game). */
  stop(): void {
    for (const w of this.waiting.splice(0)) w.resolve(null);
  }

  record(gameId: string, seq: number, entry: JournalEntry): void {
    if (entry.k === 'new') this.game = { id: gameId, entries: [entry] };
    else if (this.game?.id === gameId) this.game.entries[seq] = entry;
    this.answer();
  }

  /** Each position the other board's game went through, with the move made from it. */
  private positions(): { fen: string; move: Move | null }[] {
    const first = this.game?.entries[0];
    if (!first || first.k !== 'new') return [];
    const game = new Game(parseFen(first.fen, { allowUncrownedMen: true }), first.options as GameOptions);
    const play = (path: readonly number[]) => {
      const m = game
        .legalMoves()
        .find((x) => x.from === path[0] && x.path.length === path.length - 1 && x.path.every((p, i) => p === path[i + 1]));
      if (m) game.play(m);
    };
    for (const p of first.moves) play(p);
    for (let i = 1; i < this.game!.entries.length; i++) {
      const e = this.game!.entries[i];
      if (!e) break; // the records after a gap wait for it
      if (e.k === 'move') play(e.path);
      else if (e.k === 'takeback') game.undo();
    }
    const out: { fen: string; move: Move | null }[] = [];
    const replay = new Game(parseFen(first.fen, { allowUncrownedMen: true }), first.options as GameOptions);
    for (const ply of game.plies) {
      out.push({ fen: makeFen(replay.position), move: ply.move });
      replay.play(ply.move);
    }
    out.push({ fen: makeFen(replay.position), move: null });
    return out;
  }

  private answer(): void {
    if (!this.waiting.length) return;
    const list = this.positions();
    this.waiting = this.waiting.filter((w) => {
      const at = [...list].reverse().find((p) => p.fen === w.fen && p.move);
      if (!at?.move) return true;
      w.resolve({ move: at.move, score: 0, depth: 0, pv: [], nodes: 0, ms: 0 });
      return false;
    });
  }

  get connected(): boolean {
    return this.client?.connected ?? false;
  }
}

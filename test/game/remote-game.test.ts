// A game between two boards far apart, at the game layer: two
// sessions, each on its own simulated board, each with the other side played
// "at another board". A move made on one board is handed to the other as a
// remote move (ply index, squares, the mover's clock); that player carries it
// out on their board and it is checked against exactly that move. The relay
// here is a plain function (the stations carry it over MQTT): it also delivers
// copies, a ply ahead of its turn, and nonsense, which must be dropped or named.
import { describe, expect, it } from 'vitest';
import { GameSession, type SessionEvent } from '../../src/game/index.ts';
import { RemoteMoveError } from '../../src/game/remote.ts';
import { renderPlayers } from '../../src/web/render.ts';
import { initialState } from '../../src/web/state.ts';
import type { ServerInfo } from '../../src/protocol/v1.ts';
import type { JournalEntry } from '../../src/storage/journal.ts';
import { SimBoard, mulberry32 } from '../../src/sensors/sim/index.ts';
import { countsOf } from '../../src/tracking/boards.ts';
import { legalMoves, type Color, type Move } from '../../src/rules/index.ts';
import { Snapshot } from '../../src/protocol/v1.ts';

const TAGS = { Event: 'Two-town friendly', Site: 'Leeds / Hull', Black: 'Al', White: 'Bea' };

class Board {
  readonly sim: SimBoard;
  readonly session: GameSession;
  readonly journal: JournalEntry[] = [];
  readonly events: SessionEvent[] = [];
  constructor(
    readonly local: Color,
    seed: number,
    now: () => number,
  ) {
    this.sim = new SimBoard({ clock: 'manual', seed });
    this.session = new GameSession({ now, timeControl: '5m+3s', journal: (e) => this.journal.push(e) });
    this.session.on((e) => this.events.push(e));
  }
  async open(): Promise<void> {
    await this.sim.open();
    this.sim.onFrame((f) => this.session.pushFrame(f.t, f.readings));
    this.session.boardStatus(true, 'sim', 'simulated board');
  }
  get remoteSide(): Color {
    return this.local === 'black' ? 'white' : 'black';
  }
  newGame(): void {
    this.session.newGame({ tags: TAGS, remote: { side: this.remoteSide, name: this.remoteSide === 'black' ? 'Al' : 'Bea' } });
  }
  setUp(): void {
    const counts = countsOf(this.session.game.position);
    for (let s = 1; s <= 32; s++) this.sim.set(s, counts[s - 1]!);
  }
  /** A hand carries a move out: lift, put down (crowned: two coins), take the captured pieces. */
  play(m: Move): void {
    const size = this.sim.coinsAt(m.from);
    this.sim.lift(m.from);
    this.sim.advance(150);
    this.sim.set(m.to, m.crowned ? 2 : size);
    this.sim.advance(150);
    for (const c of m.captures) {
      this.sim.lift(c);
      this.sim.advance(120);
    }
  }
  said(type: string): SessionEvent[] {
    return this.events.filter((e) => e.type === type);
  }
}

/** Both boards on one clock (the stations' clocks are each their own; here they agree). */
function pair(): { a: Board; b: Board; wait: (ms: number) => void } {
  let t = Date.UTC(2026, 10, 26, 19, 0, 0);
  const now = () => t;
  const a = new Board('black', 11, now);
  const b = new Board('white', 12, now);
  const wait = (ms: number) => {
    for (let left = ms; left > 0; left -= 50) {
      t += 50;
      a.sim.advance(50);
      b.sim.advance(50);
    }
  };
  return { a, b, wait };
}

/** Both boards open, the game started on each with the other side at the other board, the start position set up. */
async function ready(): Promise<ReturnType<typeof pair>> {
  const p = pair();
  for (const x of [p.a, p.b]) {
    await x.open();
    x.newGame();
    x.setUp();
  }
  p.wait(1000);
  return p;
}

/** What a station sends for its own last move: the ply, its squares and the mover's clock. */
function lastPly(board: Board): { ply: number; path: number[]; clockMs?: number } {
  const s = board.session.snapshot();
  const rec = s.moves[s.moves.length - 1]!;
  return { ply: rec.ply, path: [rec.from, ...rec.path], ...(rec.clock !== undefined && rec.clock !== null ? { clockMs: rec.clock } : {}) };
}

describe('a game between two boards far apart', () => {
  it('each side carries out the other side’s moves on its own board; copies are dropped; both PDNs are one game', async () => {
    const { a, b, wait } = await ready();
    expect(a.said('ready')).toHaveLength(1);
    expect(b.said('ready')).toHaveLength(1);
    expect(a.said('new-game')[0]).toMatchObject({ say: expect.stringContaining('Bea plays White at another board') });
    expect(b.session.snapshot().remote).toEqual({ side: 'black', name: 'Al', link: null, move: null });

    const rng = mulberry32(2611);
    let refusedEarly = false;
    let wrongTried = false;
    for (let n = 0; n < 70 && !a.session.game.outcome; n++) {
      const game = a.session.game;
      const mover = game.turn === 'black' ? a : b;
      const other = mover === a ? b : a;
      const legal = legalMoves(game.position, game.options);
      const m = legal[Math.floor(rng() * legal.length)]!;
      // Before the move arrives, the other board's player moves for the side played elsewhere: refused, by name.
      if (!refusedEarly && n === 3) {
        refusedEarly = true;
        const theirs = legalMoves(other.session.game.position)[0]!;
        other.play(theirs);
        wait(1500);
        const alert = other.said('alert').at(-1);
        expect(alert).toMatchObject({ alert: { category: 'not-computers-move' } });
        expect(alert && alert.type === 'alert' && alert.alert.message).toMatch(
          mover === a ? /^That move is Al's to make, at the other board: .*then wait for Al's move\.$/ : /Bea's to make/,
        );
        expect(other.session.game.plies).toHaveLength(n);
        // Put back as told.
        other.setUp();
        wait(1200);
        expect(other.said('alert-cleared').length).toBeGreaterThan(0);
      }
      mover.play(m);
      wait(900);
      expect(mover.session.game.plies, `ply ${n} committed on the mover's board`).toHaveLength(n + 1);
      const sent = lastPly(mover);
      // Out of order (the next ply before this one) is named; this one, and a copy of it, are taken once.
      expect(() => other.session.remoteMove({ ...sent, ply: sent.ply + 1 })).toThrow(RemoteMoveError);
      other.session.remoteMove(sent);
      other.session.remoteMove(sent);
      const shown = other.said('remote-move').at(-1);
      if (shown?.type !== 'remote-move') throw new Error('no remote move shown');
      expect(shown).toMatchObject({ from: m.from, path: m.path });
      expect(other.session.snapshot().remote?.move).toMatchObject({ from: m.from, path: m.path });
      expect(Snapshot.safeParse(other.session.snapshot()).success).toBe(true);
      // Once, a wrong move is carried out first: refused, with the right move named; then put back.
      const wrong = legal.find((x) => x.from !== m.from && !x.captures.length && !m.captures.length);
      if (!wrongTried && n >= 6 && wrong) {
        wrongTried = true;
        other.play(wrong);
        wait(1500);
        const alert = other.said('alert').at(-1);
        expect(alert && alert.type === 'alert' && alert.alert.message).toMatch(
          new RegExp(`^That is not (Al|Bea)'s move: .*, then play ${shown.text}\\.$`),
        );
        other.setUp();
        wait(1200);
      }
      other.play(m);
      wait(900);
      expect(other.session.game.plies, `ply ${n} carried out on the other board`).toHaveLength(n + 1);
      expect(other.session.snapshot().remote?.move ?? null).toBeNull();
      // The copy arriving late changes nothing.
      other.session.remoteMove(sent);
      expect(other.session.game.plies).toHaveLength(n + 1);
      // The clocks agree after every ply: the mover's time as the mover's board read it.
      const clocks = (x: Board) => x.session.snapshot().moves.at(-1)!.clock;
      expect(clocks(other)).toBe(clocks(mover));
    }
    expect(refusedEarly && wrongTried).toBe(true);
    expect(a.session.game.plies.length).toBeGreaterThanOrEqual(40);
    console.log(
      `remote game: ${a.session.game.plies.length} plies, ${a.said('alert').length + b.said('alert').length} alerts, result ${a.session.result}`,
    );
    // One game, the same record on both sides, clocks included.
    expect(b.session.pdn()).toBe(a.session.pdn());
    expect(a.session.pdn()).toMatch(/\[White "Bea"\]/);
    expect(a.session.pdn()).toMatch(/%clk/);
  });

  it('each board acts only for its own player: resign, draw and takeback for the far side are refused, named; the page shows no buttons for them', async () => {
    const { a, b } = await ready();
    const far = a.remoteSide;
    const farName = far === 'black' ? 'Al' : 'Bea';
    for (const act of [
      () => a.session.resign(far),
      () => a.session.offerDraw(far),
      () => a.session.acceptDraw(far),
      () => a.session.takeback(far),
    ])
      expect(act).toThrow(new RegExp(`${farName} plays ${far === 'black' ? 'Black' : 'White'} at the other board: only they can`));
    expect(a.session.pdn()).toContain('[Result "*"]');
    // Their own side's draw offer is theirs to make.
    a.session.offerDraw(a.local);
    expect(a.session.snapshot().drawOffer).toBe(a.local);
    // (The page's view: connected, allowed to act.)
    const view = { ...initialState(), snap: a.session.snapshot(), connection: 'open' as const, server: { readOnly: false } as ServerInfo };
    const html = renderPlayers(view, 0);
    const rows = html.split('class="player player-');
    const farRow = rows.find((r) => r.startsWith(far))!;
    const nearRow = rows.find((r) => r.startsWith(a.local))!;
    expect(farRow).not.toMatch(/Resign|Offer draw|Accept draw/);
    expect(farRow).toContain('at another board');
    expect(nearRow).toMatch(/Resign/);
    void b;
  });

  it('names a move that is not theirs to send; a restart keeps who plays at the other board', async () => {
    const { a, b, wait } = await ready();
    // Black (Al) is at a's board: b may hear of Black's moves; a is told nothing of its own side.
    expect(() => a.session.remoteMove({ ply: 0, path: [11, 15] })).toThrow(/Black's turn here|not-their-turn|turn/);
    expect(() => b.session.remoteMove({ ply: 0, path: [11, 19] })).toThrow(/not a legal move/);
    expect(() => b.session.remoteMove({ ply: 2, path: [11, 15] })).toThrow(/ply 3 arrived while this game is at ply 1/);
    const m = legalMoves(a.session.game.position).find((x) => x.from === 11 && x.to === 15)!;
    a.play(m);
    wait(900);
    b.session.remoteMove(lastPly(a));
    // A different move for a ply already played is a disagreement, named.
    b.play(m);
    wait(900);
    expect(() => b.session.remoteMove({ ply: 0, path: [9, 13] })).toThrow(/ply 1 here is 11-15/);
    // A restart: the journal says who plays at the other board.
    const again = new GameSession({ timeControl: '5m+3s' });
    again.restore(b.journal.slice(b.journal.findIndex((e) => e.k === 'new')));
    expect(again.snapshot().remote).toEqual({ side: 'black', name: 'Al', link: null, move: null });
    expect(again.pdn()).toBe(b.session.pdn());
    // A game with both players here knows of no other board.
    const plain = new GameSession();
    plain.newGame();
    expect(() => plain.remoteMove({ ply: 0, path: [11, 15] })).toThrow(/no player at another board/);
  });
});

// The polarity-coded board (Black's coins raise the reading, White's lower it:
// hardware/README.md): the reader tells the kind of board from the set-up,
// counts coins either way from empty, and says which side each coin is on.
import { describe, expect, it } from 'vitest';
import { Game, colorAt, legalMoves, moveText, parseFen, type Move, type Position } from '../../src/rules/index.ts';
import { THRESHOLDS as T } from '../../src/reading/thresholds.ts';
import { GEOMETRY } from '../../src/sensors/magnet-physics.ts';
import { HUMAN, RandomHand, Table } from '../harness/table.ts';
import { unwrap } from '../../src/common/result.ts';

const coded = { coding: 'polarity' as const };

function move(game: Game, text: string): Move {
  const m = legalMoves(game.position).find((x) => moveText(x, legalMoves(game.position)) === text);
  if (!m) throw new Error(`no move ${text}`);
  return m;
}

describe('polarity-coded board', () => {
  it("is recognised at the set-up (from empty, and started on a set board), and each coin's side is read", async () => {
    for (let seed = 1; seed <= 6; seed++) {
      for (const fromEmpty of [true, false]) {
        const t = new Table({ seed, physics: coded });
        t.feeding = fromEmpty;
        await t.open();
        t.sim.setupStart();
        t.wait(1000);
        t.feeding = true;
        t.wait(1500);
        expect(t.tracker.phase, `seed ${seed} ${fromEmpty ? 'from empty' : 'set before'}: ${JSON.stringify(t.tracker.boardStatus)}`).toBe(
          'play',
        );
        const v = t.tracker.view;
        expect(v.coded).toBe(true);
        for (let sq = 1; sq <= 12; sq++) expect(v.signed[sq - 1], `square ${sq}`).toBeGreaterThan(0.5);
        for (let sq = 21; sq <= 32; sq++) expect(v.signed[sq - 1], `square ${sq}`).toBeLessThan(-0.5);
      }
    }
  });

  it('a board glued the old way is recognised as such (no colours)', async () => {
    const t = new Table({ seed: 3 });
    await t.open();
    t.sim.setupStart();
    t.wait(1500);
    expect(t.tracker.phase).toBe('play');
    expect(t.tracker.view.coded).toBe(false);
  });

  it('a game played with every habit comes out exact, with no alert', async () => {
    for (let seed = 1; seed <= 4; seed++) {
      const t = new Table({ seed, physics: coded });
      await t.open();
      t.sim.setupStart();
      t.wait(1500);
      const hand = new RandomHand(t, 100 + seed, HUMAN);
      const played: string[] = [];
      const game = new Game(t.game.start);
      for (let ply = 0; ply < 60 && !game.outcome; ply++) {
        const moves = game.legalMoves();
        const m = moves[Math.floor(hand.rng() * moves.length)];
        played.push(moveText(m, moves));
        game.play(m);
        hand.playMove(m);
      }
      t.wait(1500);
      expect(t.alerts(), `seed ${seed}`).toEqual([]);
      expect(
        t.game.plies.map((p) => moveText(p.move, legalMoves(p.before))),
        `seed ${seed}`,
      ).toEqual(played);
    }
  });

  it('a set-up with coins of the wrong colour names each one, and play starts only when all are right', async () => {
    const t = new Table({ seed: 5, physics: coded });
    await t.open();
    t.sim.setupStart();
    t.wait(1500);
    expect(t.tracker.phase).toBe('play');
    // A new game: the same set-up but two coins swapped for the other side's.
    t.sim.lift(5);
    t.sim.place(5, { color: 'white', offMm: 1 });
    t.sim.lift(26);
    t.sim.place(26, { color: 'black', offMm: 2 });
    t.wait(300);
    t.tracker.setGame(Game.standard());
    t.wait(800);
    expect(t.tracker.phase).toBe('setup');
    const status = t.tracker.boardStatus;
    expect(status.kind === 'setup' && status.message).toBe(
      "Set up the position: The coin on 5 is White's: put a Black coin there. The coin on 26 is Black's: put a White coin there.",
    );
    t.sim.lift(5);
    t.sim.place(5, { color: 'black' });
    t.wait(400);
    expect(t.tracker.phase).toBe('setup');
    t.sim.lift(26);
    t.sim.place(26, { color: 'white' });
    t.wait(600);
    expect(t.tracker.phase).toBe('play');
    expect(t.alerts()).toEqual([]);
  });

  it('a position from a FEN with kings, set up with a king of the wrong colour, and after a restart: named, then play', async () => {
    const fen = 'W:W18,K23,30:B1,K3,11';
    const pos = unwrap(parseFen(fen));
    const t = new Table({ seed: 2, physics: coded, game: new Game(pos) });
    await t.open();
    t.sim.setupStart(); // the board is calibrated from the start position first…
    t.wait(1500);
    t.tracker.setGame(Game.standard());
    t.wait(800);
    expect(t.tracker.view.coded).toBe(true);
    // …then cleared and the FEN's pieces put down, the king on 23 in Black's coins.
    t.sim.clear();
    t.wait(300);
    place(t, pos, { 23: 'black' });
    t.wait(300);
    t.tracker.setGame(new Game(pos));
    t.wait(1000);
    const status = t.tracker.boardStatus;
    expect(status.kind === 'setup' && status.message).toBe("Set up the position: The king on 23 is Black's: put a White king there.");
    t.sim.set(23, 0);
    t.wait(200);
    t.sim.set(23, 2, { color: 'white' });
    t.wait(800);
    expect(t.tracker.phase).toBe('play');
    // A restart: a fresh tracker on the same board (the coins as they stand) — and a man of the wrong colour.
    t.sim.lift(30);
    t.sim.place(30, { color: 'black' });
    t.wait(300);
    t.tracker.setGame(new Game(pos));
    t.wait(1000);
    const again = t.tracker.boardStatus;
    expect(again.kind === 'setup' && again.message).toBe("Set up the position: The coin on 30 is Black's: put a White coin there.");
  });

  it('a coin put down magnet-up on a coded board is reported ("turn it over"), not taken for the other side\'s', async () => {
    const t = new Table({ seed: 4, physics: coded });
    await t.open();
    t.sim.setupStart();
    t.wait(1500);
    t.sim.hold('black');
    t.sim.lift(11);
    t.wait(150);
    t.sim.set(15, 1, { upsideDown: true, offMm: 1.5 });
    t.wait(1500);
    expect(t.game.plies.length).toBe(1);
    expect(t.tracker.currentReminder?.message).toBe('The coin on 15 is upside down: turn it over.');
    t.sim.flip(15);
    t.wait(600);
    expect(t.tracker.currentReminder).toBeNull();
    expect(t.alerts()).toEqual([]);
  });
});

describe('polarity-coded board, small magnets glued proud (a coin upside down reads a quarter of a step the other way)', () => {
  const proud = { coding: 'polarity' as const, magnet: '8x1.5-N42', geometry: { ...GEOMETRY, mount: 'glued' as const } };

  it('a man landing upside down 3 mm off-centre is counted and said, the move made; turned over, nothing is said', async () => {
    const t = new Table({ seed: 5, physics: proud });
    await t.open();
    t.setUp();
    t.sim.hold('black');
    t.sim.lift(11);
    t.wait(150);
    t.sim.set(15, 1, { upsideDown: true, offMm: 3 });
    t.wait(1000);
    // (Nearer empty than a coin's side needs elsewhere: the game's prior reads it.)
    expect(t.tracker.reader.view().signed[14]).toBeGreaterThan(-T.sideBar);
    expect(t.game.plies.length).toBe(1);
    expect(t.tracker.currentReminder?.message).toBe('The coin on 15 is upside down: turn it over.');
    t.sim.flip(15);
    t.wait(600);
    expect(t.tracker.currentReminder).toBeNull();
    expect(t.alerts()).toEqual([]);
  });

  it("a man straightened in a j'adoube and put back upside down is said, not missing; so is a White one", async () => {
    const t = new Table({ seed: 6, physics: proud });
    await t.open();
    t.setUp();
    for (const sq of [10, 23]) {
      t.sim.lift(sq);
      t.wait(300);
      t.sim.set(sq, 1, { upsideDown: true, offMm: 3 });
      t.wait(1000);
      expect(t.tracker.currentReminder?.message).toBe(`The coin on ${sq} is upside down: turn it over.`);
      t.sim.flip(sq);
      t.wait(600);
      expect(t.tracker.currentReminder).toBeNull();
    }
    expect(t.alerts()).toEqual([]);
    expect(t.game.plies.length).toBe(0);
  });
});

describe('polarity-coded board: restart with kings', () => {
  it('a service started on a board already holding kings of both colours calibrates without a king lifted (6 boards)', async () => {
    const pos = unwrap(parseFen('B:WK5,K14,21,22,30:BK27,K31,1,2,9'));
    for (let seed = 1; seed <= 6; seed++) {
      const t = new Table({ seed, physics: coded, game: new Game(pos) });
      t.feeding = false;
      await t.open();
      place(t, pos);
      t.wait(1000);
      t.feeding = true;
      t.wait(1500);
      expect(t.tracker.phase, `seed ${seed}: ${JSON.stringify(t.tracker.boardStatus)}`).toBe('play');
      expect(t.tracker.view.coded).toBe(true);
      expect(t.alerts()).toEqual([]);
    }
  });
});

describe("polarity-coded board: a crown of the opponent's colour", () => {
  it("a man crowned with an opponent's coin slipped under it is a king of the side that crowned, and moves as one", async () => {
    const pos = unwrap(parseFen('B:W9,10:B26'));
    const t = new Table({ seed: 3, physics: coded, game: new Game(pos) });
    await t.open();
    t.sim.setupStart(); // calibrated from the start position first
    t.wait(1500);
    t.tracker.setGame(Game.standard());
    t.wait(800);
    t.sim.clear();
    t.wait(300);
    place(t, pos);
    t.wait(300);
    t.tracker.setGame(new Game(pos));
    t.wait(1000);
    expect(t.tracker.phase, JSON.stringify(t.tracker.boardStatus)).toBe('play');
    t.sim.hold('black');
    t.sim.lift(26);
    t.wait(150);
    t.sim.place(30);
    t.wait(500);
    expect(t.tracker.crownSquare).toBe(30);
    // The rules' way with an opponent's coin: lift the man, put the crown down, the man on top.
    t.sim.lift(30);
    t.wait(200);
    t.sim.place(30, { color: 'white', offMm: 0.5 });
    t.wait(150);
    t.sim.place(30, { color: 'black', offMm: 0.5 });
    t.wait(800);
    expect(t.of('crowned').map((e) => e.square)).toEqual([30]);
    // (The White coin alone on 30 for a moment while the crown was put together: no reminder about it.)
    expect(t.of('reminder').map((e) => e.reminder.message)).toEqual([]);
    expect(t.tracker.boardStatus.kind).toBe('in-sync');
    // White replies; the mixed king then moves back as a stack.
    t.sim.hold('white');
    t.sim.lift(9);
    t.wait(150);
    t.sim.place(5);
    t.wait(600);
    t.sim.lift(30);
    t.wait(150);
    t.sim.place(26, { color: 'white', offMm: 0.5 });
    t.sim.place(26, { color: 'black', offMm: 0.5 });
    t.wait(800);
    expect(t.tracker.currentGame.plies.map((p) => moveText(p.move, legalMoves(p.before)))).toEqual(['26-30', '9-5', '30-26']);
    expect(t.alerts()).toEqual([]);
    expect(t.tracker.currentReminder).toBeNull();
  });
});

describe('polarity-coded board: mistakes named from the colours seen', () => {
  it("a White man moved on Black's turn is named as such, with the coin's colour", async () => {
    const t = new Table({ seed: 6, physics: coded });
    await t.open();
    t.sim.setupStart();
    t.wait(1500);
    // Black to move; White's man on 21 goes to 17 (a square no black move reaches).
    t.sim.hold('white');
    t.sim.lift(21);
    t.wait(150);
    t.sim.place(17);
    t.wait(1500);
    const a = t.alerts().at(-1)!;
    expect(a.category).toBe('wrong-side');
    expect(a.message).toMatch(/coin put on 17 is White's/);
    t.sim.lift(17);
    t.sim.place(21);
    t.wait(800);
    expect(t.tracker.currentAlert).toBeNull();
  });

  it('an extra coin from the box stays an extra piece (nothing of the other side moved), its colour named', async () => {
    const t = new Table({ seed: 7, physics: coded });
    await t.open();
    t.sim.setupStart();
    t.wait(1500);
    t.sim.place(17, { color: 'white' });
    t.wait(1500);
    const a = t.alerts().at(-1)!;
    expect(a.category).toBe('extra-piece');
    expect(a.message).toMatch(/The coin put on 17 is White's\.$/);
  });
});

/** Puts a position's pieces on the sim board, each side's coins (or the colours given per square). */
function place(t: Table, pos: Position, colours: Record<number, 'black' | 'white'> = {}): void {
  for (let sq = 1; sq <= 32; sq++) {
    const c = colorAt(pos, sq);
    if (!c) continue;
    t.sim.set(sq, pos.kings & (1 << (sq - 1)) ? 2 : 1, { color: colours[sq] ?? c });
  }
}

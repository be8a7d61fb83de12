// Scenario tests for move tracking, each scripted through the simulated
// board's hand on its virtual clock: setup, commits, quiet partial states,
// takebacks, change of mind, fast replies, crowning, route choice, variants
// and every illegal-move diagnosis with its guide back.
import { describe, expect, it } from 'vitest';
import { Game, legalMoves, parseFen, type Move } from '../../src/rules/index.ts';
import { RandomHand, Table, routineCalibration } from '../harness/table.ts';
import { BoardPhysics } from '../../src/sensors/sim/index.ts';
import { unwrap } from '../../src/common/result.ts';

async function table(opts: ConstructorParameters<typeof Table>[0] = {}): Promise<Table> {
  const t = new Table(opts);
  await t.open();
  t.setUp();
  expect(t.tracker.phase).toBe(t.game.outcome ? 'over' : 'play');
  return t;
}

const move = (g: Game, text: string): Move => {
  const [a, b] = text.split(/[-x]/).map(Number);
  const m = g.legalMoves().find((x) => x.from === a && x.to === b);
  if (!m) throw new Error(`${text} is not legal here`);
  return m;
};

/** A case's table: its position (or the start), its moves before the action played by hand; the board and ply count then. */
async function caseTable(c: { fen?: string; pre?: string[]; routine?: boolean }): Promise<{ t: Table; before: number[]; plies: number }> {
  const game = c.fen ? new Game(unwrap(parseFen(c.fen))) : Game.standard();
  const t = await table({ game, routine: c.routine });
  for (const m of c.pre ?? []) {
    t.play(move(t.game, m));
    t.wait(300);
  }
  return { t, before: t.sim.occupancy(), plies: t.game.plies.length };
}

const moves = (t: Table) => t.game.plies.map((p) => `${p.move.from}${p.move.captures.length ? 'x' : '-'}${p.move.to}`);

describe('setup', () => {
  it('an empty board is told what to place; play starts when it matches (and calibrates itself)', async () => {
    const t = new Table();
    await t.open();
    t.wait(300);
    const setup = t.of('setup')[0];
    expect(setup.fixes.length).toBe(24);
    expect(setup.message).toMatch(/^Set up the position: Put a black man on 1, /);
    expect(t.tracker.phase).toBe('setup');
    t.sim.setupStart();
    t.wait(600);
    expect(t.of('ready').length).toBe(1);
    expect(t.tracker.view.calibrated).toBe(true);
    expect(t.tracker.phase).toBe('play');
  });

  it('pieces set 2 s before tracking starts (the service started after the board was set up): it calibrates and play goes on', async () => {
    for (let seed = 1; seed <= 6; seed++) {
      const t = new Table({ seed });
      t.feeding = false;
      await t.open();
      t.sim.setupStart();
      t.wait(2000);
      t.feeding = true;
      t.wait(500);
      expect(t.tracker.phase).toBe('play');
      const hand = new RandomHand(t, seed);
      for (const text of ['11-15', '23-19', '8-11', '22-17']) hand.playMove(move(t.game, text));
      t.wait(500);
      expect(moves(t)).toEqual(['11-15', '23-19', '8-11', '22-17']);
      expect(t.alerts()).toEqual([]);
    }
  });

  it('sensors at the datasheet limits (zero levels ±70 counts): set up from an empty board it calibrates; started on a set board it names the coins it cannot tell from empty, and lifting them settles it', async () => {
    const physics = { offsetSpread: 70 };
    let named = 0;
    for (let seed = 1; seed <= 8; seed++) {
      // Set up from empty: every square was seen empty, so each has its own empty level.
      const a = new Table({ seed, physics });
      await a.open();
      a.sim.setupStart();
      a.wait(1500);
      expect(a.tracker.phase, `seed ${seed}, set up from empty`).toBe('play');
      // Started on a set board: the highest empty sensor may read above the lowest coin.
      const b = new Table({ seed, physics });
      b.feeding = false;
      await b.open();
      b.sim.setupStart();
      b.wait(1000);
      b.feeding = true;
      b.wait(1500);
      if (b.tracker.phase === 'setup') {
        const unclear: number[] = [];
        for (let i = 0; i < 32; i++) if ((b.tracker.view.unclear >>> i) & 1) unclear.push(i + 1);
        expect(unclear.length, `seed ${seed}: not calibrated, and no square named (${b.tracker.boardStatus.kind})`).toBeGreaterThan(0);
        const status = b.tracker.boardStatus;
        expect(status.kind === 'setup' && status.message).toMatch(new RegExp(`[Ll]ift the coins? on ${unclear[0]}\\b.*cannot yet tell`));
        named++;
        for (const sq of unclear) {
          b.sim.lift(sq);
          b.wait(600);
          b.sim.place(sq);
          b.wait(300);
        }
        b.wait(1000);
      }
      expect(b.tracker.phase, `seed ${seed}, started on a set board`).toBe('play');
      expect(b.alerts()).toEqual([]);
    }
    // (The case is real on such boards: at least one of the eight needed a coin lifted.)
    expect(named).toBeGreaterThan(0);
  });

  it('a FEN position with kings is set up and recognised', async () => {
    const game = new Game(unwrap(parseFen('W:W18,K23,30:B1,K3,11')));
    const t = await table({ game });
    expect(t.tracker.boardStatus.kind).toBe('in-sync');
    t.play(move(t.game, '23-19'));
    t.wait(300);
    expect(moves(t)).toEqual(['23-19']);
  });

  it('a wrong set-up lists exactly what to fix', async () => {
    const t = new Table();
    await t.open();
    t.sim.setupStart();
    t.sim.lift(12);
    t.sim.place(16);
    t.wait(800);
    expect(t.tracker.phase).toBe('setup');
    const last = t.of('setup').at(-1)!;
    expect(last.message).toBe('Set up the position: Put a black man on 12 and take the coin off 16.');
    t.sim.lift(16);
    t.sim.place(12);
    t.wait(600);
    expect(t.tracker.phase).toBe('play');
  });

  it('after a reconnect (resync) the board is compared again before play goes on', async () => {
    const t = await table();
    t.play(move(t.game, '11-15'));
    t.wait(300);
    t.events.length = 0;
    const ev = t.tracker.setGame(t.game);
    t.wait(100);
    expect([...ev, ...t.events].some((e) => e.type === 'ready')).toBe(true);
    expect(t.tracker.phase).toBe('play');
  });
});

describe('moves', () => {
  it('a simple move commits as soon as the pieces rest (within a few frames)', async () => {
    const t = await table();
    t.sim.lift(11);
    t.wait(200);
    const rest = t.now() + t.sim.physics.options.motionMs;
    t.sim.place(15);
    t.wait(300);
    const ev = t.of('move');
    expect(ev.map((e) => e.text)).toEqual(['11-15']);
    expect(ev[0].t - rest).toBeLessThanOrEqual(40);
    expect(t.alerts()).toEqual([]);
  });

  it('a piece lifted and put back is nothing; a hand brushing past is nothing', async () => {
    const t = await table();
    t.sim.lift(11);
    t.wait(3000);
    t.sim.place(11);
    t.wait(300);
    // A coin passed over square 15 for 10 ms: too short to count.
    t.sim.place(15);
    t.wait(10);
    t.sim.lift(15);
    t.wait(500);
    expect(t.events.filter((e) => e.type === 'move' || e.type === 'alert')).toEqual([]);
    expect(t.tracker.boardStatus.kind).toBe('in-sync');
  });

  it('a capture with the captured piece taken first waits quietly, then commits', async () => {
    const t = await table();
    for (const m of ['11-15', '22-18']) {
      t.play(move(t.game, m));
      t.wait(200);
    }
    t.sim.lift(18); // the captured piece first
    t.wait(1500);
    expect(t.tracker.boardStatus.kind).toBe('moving');
    t.sim.lift(15);
    t.wait(300);
    t.sim.place(22);
    t.wait(300);
    expect(moves(t)).toEqual(['11-15', '22-18', '15x22']);
    expect(t.alerts()).toEqual([]);
  });

  it('a multi-jump stepped through its landing squares is one move', async () => {
    const game = new Game(unwrap(parseFen('B:W14,22,30:B10,1')));
    const t = await table({ game });
    t.sim.lift(10);
    t.wait(200);
    t.sim.place(17);
    t.wait(400);
    t.sim.lift(14);
    t.wait(400);
    expect(t.of('move')).toEqual([]);
    t.sim.lift(17);
    t.wait(200);
    t.sim.place(26);
    t.wait(200);
    t.sim.lift(22);
    t.wait(300);
    expect(t.game.plies.map((p) => p.move.path)).toEqual([[17, 26]]);
  });

  it("a king's two routes round the same pieces: the record keeps the route the hand took", async () => {
    for (const [first, path] of [
      [17, [17, 26, 19, 10]],
      [19, [19, 26, 17, 10]],
    ] as const) {
      const game = new Game(unwrap(parseFen('B:W14,15,22,23,31:BK10,1')));
      const t = await table({ game });
      const second = first === 17 ? 19 : 17;
      t.sim.lift(10);
      t.wait(150);
      t.sim.set(first, 2);
      t.wait(200);
      t.sim.lift(first);
      t.wait(150);
      t.sim.set(26, 2);
      t.wait(200);
      t.sim.lift(26);
      t.wait(150);
      t.sim.set(second, 2);
      t.wait(200);
      t.sim.lift(second);
      t.wait(150);
      for (const c of [14, 15, 22, 23]) t.sim.lift(c);
      t.wait(150);
      t.sim.set(10, 2);
      t.wait(400);
      expect(t.game.plies.map((p) => p.move.path)).toEqual([path]);
    }
  });

  it('a fast reply (both moves done before the board was seen still) commits both', async () => {
    const t = await table();
    t.sim.lift(11);
    t.sim.place(15);
    t.sim.lift(22);
    t.sim.place(18);
    t.wait(400);
    expect(moves(t)).toEqual(['11-15', '22-18']);
    expect(t.alerts()).toEqual([]);
  });

  it('change of mind before the opponent moves: the move is replaced', async () => {
    const t = await table();
    t.play(move(t.game, '11-15'));
    t.wait(300);
    t.sim.lift(15);
    t.wait(200);
    t.sim.place(16);
    t.wait(300);
    expect(moves(t)).toEqual(['11-16']);
    expect(t.of('move-replaced').map((e) => e.text)).toEqual(['11-16']);
  });

  it('after a change of mind the board is compared with the new position (no stale one): an extra coin is named as such', async () => {
    const t = await table();
    t.play(move(t.game, '11-15'));
    t.wait(300);
    t.sim.lift(15);
    t.wait(200);
    t.sim.place(16);
    t.wait(300);
    expect(t.tracker.differences()).toEqual([]);
    expect(t.tracker.boardStatus.kind).toBe('in-sync');
    // White's man on 22 put down on 15 (no move of 22's): the fix list names the pieces really there.
    t.sim.lift(22);
    t.wait(150);
    t.sim.place(15);
    t.wait(1500);
    const a = t.alerts().at(-1)!;
    expect(a).toBeDefined();
    expect(a.message).not.toMatch(/null|undefined/);
    expect(a.fixes.map((f) => `${f.action} ${f.square} ${f.piece}`).sort()).toEqual(['place 22 a white man', 'remove 15 the coin']);
  });

  it('takeback: the position before the last move on the board undoes it', async () => {
    const t = await table();
    t.play(move(t.game, '11-15'));
    t.wait(300);
    t.sim.lift(15);
    t.wait(200);
    t.sim.place(11);
    t.wait(300);
    expect(moves(t)).toEqual([]);
    expect(t.of('takeback').length).toBe(1);
  });

  it('tournament mode refuses takebacks and says how to restore the move', async () => {
    const t = await table({ tracker: { takebacks: false } });
    t.play(move(t.game, '11-15'));
    t.wait(300);
    t.sim.lift(15);
    t.wait(200);
    t.sim.place(11);
    t.wait(1500);
    const a = t.alerts().at(-1)!;
    expect(a.category).toBe('takeback-refused');
    expect(a.message).toBe(
      'Takebacks are not allowed in this game: the move 11-15 stands. Take the coin off 11 and put a black man on 15.',
    );
    t.sim.lift(11);
    t.sim.place(15);
    t.wait(300);
    expect(t.of('alert-cleared').length).toBe(1);
    expect(moves(t)).toEqual(['11-15']);
  });

  it('a game that ends with no legal move is reported over', async () => {
    const game = new Game(unwrap(parseFen('B:W18:B14,1')));
    const t = await table({ game });
    t.play(move(t.game, '14x23'));
    t.wait(300);
    expect(t.of('game-over').length).toBe(1);
    expect(t.game.outcome).toEqual({ winner: 'black', reason: 'no-moves' });
    expect(t.tracker.phase).toBe('over');
  });
});

describe('crowning by stacking', () => {
  it('a coin on top crowns the man', async () => {
    const t = await table({ game: new Game(unwrap(parseFen('B:W5:B26'))) });
    t.play(move(t.game, '26-30'));
    t.wait(300);
    expect(t.of('crown-awaited').map((e) => e.square)).toEqual([30]);
    expect(t.tracker.boardStatus).toEqual({ kind: 'awaiting-crown', square: 30 });
    t.sim.place(30);
    t.wait(400);
    expect(t.of('crowned').map((e) => e.square)).toEqual([30]);
    expect(t.tracker.boardStatus.kind).toBe('in-sync');
  });

  it('a coin slipped under the man (1 → 0 → 1 → 2) crowns it', async () => {
    const t = await table({ game: new Game(unwrap(parseFen('B:W5:B26'))) });
    t.play(move(t.game, '26-30'));
    t.wait(300);
    t.sim.lift(30);
    t.wait(300);
    t.sim.place(30);
    t.wait(300);
    t.sim.place(30);
    t.wait(400);
    expect(t.of('crowned').map((e) => e.square)).toEqual([30]);
    expect(t.alerts()).toEqual([]);
  });

  it('a crowned man taken back as a stack and the same move played again stays a king (no "crown it first")', async () => {
    for (let seed = 1; seed <= 5; seed++) {
      const t = await table({ seed, game: new Game(unwrap(parseFen('B:W5,20:B26,1'))) });
      t.play(move(t.game, '26-30'));
      t.wait(300);
      t.sim.place(30); // crowned
      t.wait(400);
      expect(t.of('crowned').length).toBe(1);
      // Taken back as it stands: the stack goes back to 26.
      t.sim.lift(30);
      t.wait(150);
      t.sim.set(26, 2);
      t.wait(400);
      expect(t.of('takeback').length).toBe(1);
      // …and played again: the stack lands on 30.
      t.sim.lift(26);
      t.wait(150);
      t.sim.set(30, 2);
      t.wait(400);
      expect(moves(t)).toEqual(['26-30']);
      expect(t.game.position.kings & (1 << 29)).not.toBe(0);
      expect(t.tracker.crownSquare).toBeNull();
      // The opponent answers: no alert.
      t.play(move(t.game, '20-16'));
      t.wait(1500);
      expect(moves(t)).toEqual(['26-30', '20-16']);
      expect(t.alerts()).toEqual([]);
    }
  });

  it('a board calibrated by the routine holds each square’s own levels: a ready-made crown stack put down is the crown', async () => {
    for (let seed = 1; seed <= 12; seed++) {
      // The levels are what each square reads (a centred coin and stack of the routine's own
      // coins, a few per cent apart from the game's), whatever its sensor's gain: not pulled
      // towards a nominal guess, which on a weak sensor put one coin where a stack reads.
      const c = routineCalibration(seed);
      const p = new BoardPhysics({ seed, motionMs: 0, noise: 0, drift: 0 });
      for (let sq = 1; sq <= 32; sq++) {
        const i = sq - 1;
        p.setCoins(sq, 1, 0, { offMm: 0 });
        const one = p.expected(sq, 0) - c.empty[i];
        p.setCoins(sq, 2, 0, { offMm: 0 });
        const two = p.expected(sq, 0) - c.empty[i];
        p.setCoins(sq, 0, 0);
        expect(Math.abs(c.one[i] - c.empty[i] - one) / one, `seed ${seed} square ${sq}: one coin`).toBeLessThan(0.2);
        expect(Math.abs(c.two[i] - c.empty[i] - two) / two, `seed ${seed} square ${sq}: two coins`).toBeLessThan(0.2);
      }
      const t = await table({ game: new Game(unwrap(parseFen('B:W5,20,22,23:B26,1,9,10'))), routine: true, seed });
      t.sim.lift(26);
      t.wait(150);
      t.sim.set(30, 2);
      t.wait(400);
      t.sim.lift(20);
      t.wait(100);
      t.sim.place(16);
      t.wait(1200);
      expect(moves(t), `seed ${seed}`).toEqual(['26-30', '20-16']);
      expect(t.of('crowned').length).toBe(1);
      expect(t.alerts()).toEqual([]);
    }
  });

  it('the opponent may not move before the crown: "crown the king on 30 first"', async () => {
    // A calibrated board (the routine measured square 30, empty at the start of this position:
    // a man there could otherwise read as high as a stack on a guessed level).
    const t = await table({ game: new Game(unwrap(parseFen('B:W5,20:B26,1'))), routine: true });
    t.play(move(t.game, '26-30'));
    t.wait(300);
    t.sim.lift(20);
    t.wait(100);
    t.sim.place(16);
    t.wait(1200);
    const a = t.alerts().at(-1)!;
    expect(a.category).toBe('not-crowned');
    expect(a.message).toMatch(/^Crown the king on 30 first/);
    t.sim.place(30);
    t.wait(400);
    expect(t.of('crowned').length).toBe(1);
    expect(moves(t)).toEqual(['26-30', '20-16']);
    expect(t.tracker.currentAlert).toBeNull();
  });

  it('with "men continue jumping after crowning", a man crowned mid-capture goes on as a king', async () => {
    const game = new Game(unwrap(parseFen('B:W26,27,5:B22')), { crownContinue: true });
    const t = await table({ game });
    t.sim.lift(22);
    t.wait(150);
    t.sim.set(31, 1);
    t.wait(200);
    t.sim.place(31); // crowned on the far row
    t.wait(200);
    t.sim.lift(31);
    t.wait(150);
    t.sim.set(24, 2);
    t.wait(150);
    t.sim.lift(26);
    t.sim.lift(27);
    t.wait(400);
    expect(t.game.plies.map((p) => [p.move.path, p.move.captures])).toEqual([
      [
        [31, 24],
        [26, 27],
      ],
    ]);
    expect(t.alerts()).toEqual([]);
  });
});

describe('huffing variant', () => {
  it('a legal result is committed only once it has stood (a jump may go on); a huff is recognised', async () => {
    const game = new Game(unwrap(parseFen('B:W14,30,21:B10,1')), { huffing: true });
    const t = await table({ game, tracker: { settleMs: 1000 } });
    t.play(move(t.game, '1-5')); // Black declines 10x17
    t.wait(400);
    expect(moves(t)).toEqual([]); // not yet: it has not stood for the settle window
    t.wait(1000);
    expect(moves(t)).toEqual(['1-5']);
    // White huffs the man on 10, then moves 30-26.
    t.sim.lift(10);
    t.wait(200);
    t.sim.lift(30);
    t.wait(150);
    t.sim.place(26);
    t.wait(1500);
    expect(t.game.plies.at(-1)!.huff).toBe(10);
    expect(moves(t)).toEqual(['1-5', '30-26']);
  });
});

describe('incomplete moves: a quiet reminder (no buzzer); once the opponent moves on, the mistake is named', () => {
  const cases: {
    name: string;
    fen?: string;
    pre?: string[];
    act: (t: Table) => void;
    reply: (t: Table) => void;
    category: string;
    message: RegExp;
    later: RegExp;
    squares: number[];
  }[] = [
    {
      name: 'multi-jump stopped short',
      fen: 'B:W14,22,30:B10,1',
      act: (t) => {
        t.sim.lift(10);
        t.sim.place(17);
        t.sim.lift(14);
      },
      reply: (t) => {
        t.sim.lift(30);
        t.sim.place(25);
      },
      category: 'incomplete-jump',
      message:
        /^The jump is not finished: continue jumping from 17 \(17x26\)\. Put a black man on 10, put a white man on 14 and take the coin off 17\.$/,
      later: /^The jump is not finished: continue jumping from 17 \(17x26\)\. /,
      squares: [10, 14, 17, 25, 30],
    },
    {
      name: 'captured piece not removed',
      pre: ['11-15', '22-18'],
      act: (t) => {
        t.sim.lift(15);
        t.sim.place(22);
      },
      reply: (t) => {
        t.sim.lift(24);
        t.sim.place(20);
      },
      category: 'capture-not-removed',
      message: /^Take the captured piece off 18\. /,
      later: /^Take the captured piece off 18\. /,
      squares: [15, 20, 22, 24],
    },
  ];
  for (const c of cases) {
    it(`${c.name}: reminder "${c.category}" after a pause, alert once the opponent moves, guided back`, async () => {
      const { t, before, plies } = await caseTable(c);
      c.act(t);
      t.wait(1000);
      expect(t.of('reminder')).toEqual([]); // not yet: the player may be about to finish
      t.wait(3000);
      expect(t.alerts()).toEqual([]);
      const r = t.of('reminder').at(-1)!.reminder;
      expect(r.category).toBe(c.category);
      expect(r.message).toMatch(c.message);
      expect(t.tracker.boardStatus).toMatchObject({ kind: 'moving', reminder: { category: c.category } });
      // The opponent moves on: now it is a mistake, named the same way.
      c.reply(t);
      t.wait(1500);
      const a = t.alerts().at(-1)!;
      expect(a.category).toBe(c.category);
      expect(a.message).toMatch(c.later);
      expect([...a.squares].sort((x, y) => x - y)).toEqual(c.squares);
      expect(t.game.plies.length).toBe(plies);
      for (const f of a.fixes)
        t.sim.set(f.square, f.action === 'place' ? t.sim.coinsAt(f.square) + f.coins : t.sim.coinsAt(f.square) - f.coins);
      t.wait(500);
      expect(t.sim.occupancy()).toEqual(before);
      expect(t.tracker.currentAlert).toBeNull();
      const next = legalMoves(t.game.position)[0];
      t.play(next);
      t.wait(400);
      expect(t.game.plies.length).toBe(plies + 1);
    });
  }

  it('captured coins taken off seconds after the jumper landed: reminder only, then the capture commits', async () => {
    const t = await table();
    for (const m of ['11-15', '22-18']) {
      t.play(move(t.game, m));
      t.wait(300);
    }
    t.sim.lift(15);
    t.wait(200);
    t.sim.place(22);
    t.wait(3500);
    t.sim.lift(18);
    t.wait(300);
    expect(moves(t)).toEqual(['11-15', '22-18', '15x22']);
    expect(t.alerts()).toEqual([]);
    expect(t.of('reminder').map((e) => e.reminder.message)).toEqual([expect.stringMatching(/^Take the captured piece off 18\./)]);
    expect(t.tracker.currentReminder).toBeNull();
  });
});

describe('illegal moves: caught, explained, guided back', () => {
  const cases: {
    name: string;
    fen?: string;
    pre?: string[];
    routine?: boolean;
    act: (t: Table) => void;
    category: string;
    message: RegExp;
    squares: number[];
  }[] = [
    {
      name: 'wrong side moved',
      act: (t) => {
        t.sim.lift(22);
        t.sim.place(18);
      },
      category: 'wrong-side',
      message: /^It is Black's turn, but a white man moved from 22 to 18\. Take the coin off 18 and put a white man on 22\.$/,
      squares: [18, 22],
    },
    {
      name: 'man moved backwards',
      pre: ['11-15', '22-18'],
      act: (t) => {
        t.sim.lift(15);
        t.sim.place(11);
      },
      category: 'backwards',
      message: /^A man cannot move backwards \(15 to 11\)\./,
      squares: [11, 15],
    },
    {
      name: 'not one diagonal step',
      act: (t) => {
        t.sim.lift(9);
        t.sim.place(17);
      },
      category: 'not-diagonal',
      message:
        /^9 to 17 is not a legal move: a man moves one square diagonally forward, or jumps\. .* Put 9 back and move it again: 9-13 or 9-14\.$/,
      squares: [9, 17],
    },
    {
      name: 'capture was compulsory',
      pre: ['11-15', '22-18'],
      act: (t) => {
        t.sim.lift(9);
        t.sim.place(14);
      },
      category: 'capture-compulsory',
      message: /^A capture is compulsory: 15x22\./,
      squares: [9, 14],
    },
    {
      name: 'wrong piece removed',
      pre: ['11-15', '22-18'],
      act: (t) => {
        t.sim.lift(15);
        t.sim.place(22);
        t.sim.lift(23);
      },
      category: 'wrong-piece-removed',
      message: /^The piece on 23 was not jumped; the captured piece is on 18\./,
      squares: [15, 22, 23],
    },
    {
      name: 'own piece removed',
      pre: ['11-15', '22-18'],
      act: (t) => {
        t.sim.lift(15);
        t.sim.place(22);
        t.sim.lift(18);
        t.sim.lift(1);
      },
      category: 'own-piece-removed',
      message: /^Black's own piece on 1 must not be removed\./,
      squares: [1, 15, 18, 22],
    },
    {
      name: 'a piece missing',
      act: (t) => {
        t.sim.lift(30);
      },
      category: 'piece-missing',
      message: /^A piece is missing from 30 \(knocked over\?\)\. Put a white man on 30\.$/,
      squares: [30],
    },
    {
      name: 'an extra piece',
      act: (t) => {
        t.sim.place(17);
      },
      category: 'extra-piece',
      message: /^There is an extra piece on 17\. Take the coin off 17\.$/,
      squares: [17],
    },
    // Where the square's two-coin level was measured (the calibration routine's kings step), a
    // centred stack on a man is told from the man. (Elsewhere one coin or two is the game's call:
    // an off-centre stack reads like a centred man, and a man sitting better is never a stack.)
    {
      name: 'a stack where no king can be',
      routine: true,
      act: (t) => {
        t.sim.slide(9, 0);
        t.sim.place(9, { offMm: 0 });
      },
      category: 'stack-not-king',
      message: /^Two coins are stacked on 9, but no king can be there\. Take one coin off 9\.$/,
      squares: [9],
    },
  ];
  for (const c of cases) {
    it(`${c.name}: alert "${c.category}", then the board put back clears it and play goes on`, async () => {
      const { t, before, plies } = await caseTable(c);
      c.act(t);
      t.wait(4000);
      const alerts = t.alerts();
      expect(alerts.length).toBeGreaterThan(0);
      const a = alerts.at(-1)!;
      expect(a.category).toBe(c.category);
      expect(a.message).toMatch(c.message);
      expect([...a.squares].sort((x, y) => x - y)).toEqual(c.squares);
      expect(t.game.plies.length).toBe(plies);
      // Guide back: do what the fixes say.
      for (const f of a.fixes)
        t.sim.set(f.square, f.action === 'place' ? t.sim.coinsAt(f.square) + f.coins : t.sim.coinsAt(f.square) - f.coins);
      t.wait(500);
      expect(t.sim.occupancy()).toEqual(before);
      expect(t.tracker.currentAlert).toBeNull();
      expect(t.events.at(-1)!.type === 'alert-cleared' || t.of('alert-cleared').length > 0).toBe(true);
      // And the game goes on with a legal move.
      const next = legalMoves(t.game.position)[0];
      t.play(next);
      t.wait(400);
      expect(t.game.plies.length).toBe(plies + 1);
    });
  }
});

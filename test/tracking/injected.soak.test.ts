// Injected illegal actions: while corpus games are played on the simulated
// board by the hand with all its habits, random wrong moves of every category
// are made at random points. Each must be caught with the right category;
// putting the board back as the alert says must clear it, and the game must
// then go on to come out right. A move left part-way (captured coins on, a
// jump stopped short) is only a quiet reminder until the opponent moves on:
// those injections include the opponent's reply. A coin stacked on a man is
// told from the man only where the square's levels were measured (the
// calibration routine): those games run on a routine-calibrated board.
import { describe, expect, it } from 'vitest';
import { readPdn } from '../../src/pdn/index.ts';
import { NEIGHBOUR, colorAt, legalMoves, opposite, playMove, type Move, type Position } from '../../src/rules/index.ts';
import { mulberry32, type Rng } from '../../src/sensors/sim/index.ts';
import { corpusFile } from '../harness/corpus.ts';
import { codingFor, soakIndexes } from '../harness/corpus-games.ts';
import { HUMAN, RandomHand, Table } from '../harness/table.ts';

type Injection = { category: string; act: () => void; what?: string };

const pick = <T>(r: Rng, xs: T[]): T => xs[Math.floor(r() * xs.length)];
const isKing = (p: Position, s: number) => (p.kings & (1 << (s - 1))) !== 0;
const occupied = (p: Position, s: number) => ((p.black | p.white) & (1 << (s - 1))) !== 0;
const neighbours = (s: number) => [0, 1, 2, 3].map((d) => NEIGHBOUR[(s - 1) * 4 + d] + 1).filter((x) => x > 0);
const forward = (color: 'black' | 'white') => (color === 'black' ? [2, 3] : [0, 1]);

/** The wrong moves possible in this position, one generator per category. */
function injections(t: Table, pos: Position, r: Rng, measured: boolean): Injection[] {
  const sim = t.sim;
  const side = pos.turn;
  const legal = legalMoves(pos);
  const captures = legal.filter((m) => m.captures.length);
  const squares = Array.from({ length: 32 }, (_, i) => i + 1);
  const own = squares.filter((s) => colorAt(pos, s) === side);
  const theirs = squares.filter((s) => colorAt(pos, s) === opposite(side));
  const empty = squares.filter((s) => !occupied(pos, s));
  const out: Injection[] = [];
  const step = (from: number, dirs: number[]) =>
    dirs.map((d) => NEIGHBOUR[(from - 1) * 4 + d] + 1).filter((x) => x > 0 && !occupied(pos, x));
  const move = (from: number, to: number) => () => {
    const size = sim.coinsAt(from);
    sim.lift(from);
    t.wait(150);
    sim.set(to, size);
  };
  // The opponent answers a move left part-way as if it were done: a move of theirs that touches none of its squares.
  const reply = (m: Move): (() => void) | null => {
    const busy = new Set([m.from, ...m.path, ...m.captures]);
    const answers = legalMoves(playMove(pos, m)).filter((a) => !a.captures.length && !busy.has(a.from) && !busy.has(a.to));
    if (!answers.length) return null;
    const a = pick(r, answers);
    return () => {
      t.wait(400);
      move(a.from, a.to)();
    };
  };

  // Wrong side: one of the other side's men steps forward.
  const wrong = theirs.filter((s) => !isKing(pos, s)).flatMap((s) => step(s, forward(opposite(side))).map((to) => [s, to]));
  if (wrong.length) {
    const [f, to] = pick(r, wrong);
    out.push({ category: 'wrong-side', act: move(f, to) });
  }
  // Backwards: a man of the side to move steps back.
  const back = own.filter((s) => !isKing(pos, s)).flatMap((s) => step(s, forward(opposite(side))).map((to) => [s, to]));
  if (back.length) {
    const [f, to] = pick(r, back);
    out.push({ category: 'backwards', act: move(f, to) });
  }
  // Not one diagonal step: a man two rows ahead in its own column.
  const far = own
    .filter((s) => !isKing(pos, s))
    .map((s) => [s, side === 'black' ? s + 8 : s - 8])
    .filter(([, to]) => to >= 1 && to <= 32 && !occupied(pos, to) && !neighbours(to).includes(to));
  if (far.length) {
    const [f, to] = pick(r, far);
    out.push({ category: 'not-diagonal', act: move(f, to) });
  }
  if (captures.length) {
    // A plain step while a capture is compulsory.
    const plain = own.flatMap((s) => step(s, isKing(pos, s) ? [0, 1, 2, 3] : forward(side)).map((to) => [s, to]));
    if (plain.length) {
      const [f, to] = pick(r, plain);
      out.push({ category: 'capture-compulsory', act: move(f, to) });
    }
    const multi = captures.filter((m) => m.path.length >= 2 && !m.path.slice(0, -1).includes(m.from));
    if (multi.length) {
      const m = pick(r, multi);
      const answer = reply(m);
      if (answer)
        out.push({
          category: 'incomplete-jump',
          act: () => {
            move(m.from, m.path[0])();
            t.wait(150);
            sim.lift(m.captures[0]);
            answer();
          },
        });
    }
    const single = captures.filter((m) => m.path.length === 1 && !m.crowned);
    if (single.length) {
      const m: Move = pick(r, single);
      const answer = reply(m);
      if (answer)
        out.push({
          category: 'capture-not-removed',
          act: () => {
            move(m.from, m.to)();
            answer();
          },
        });
      const bystanders = theirs.filter((s) => !captures.some((c) => c.captures.includes(s)));
      if (bystanders.length) {
        const b = pick(r, bystanders);
        out.push({
          category: 'wrong-piece-removed',
          act: () => {
            move(m.from, m.to)();
            t.wait(150);
            sim.lift(b);
          },
        });
      }
      const mine = own.filter((s) => s !== m.from);
      if (mine.length) {
        const b = pick(r, mine);
        // The own piece goes first: done after the capture, the capture would already stand as a move.
        out.push({
          category: 'own-piece-removed',
          act: () => {
            sim.lift(b);
            t.wait(150);
            move(m.from, m.to)();
            t.wait(150);
            sim.lift(m.captures[0]);
          },
        });
      }
    }
  }
  // The last mover may still pick up the piece just moved (a change of mind): not a mistake yet.
  const last = t.game.plies.at(-1)?.move;
  const lastSquares = last ? [last.from, last.to] : [];
  // A piece knocked off: one of the other side's that nothing can capture.
  const loose = theirs.filter((s) => !captures.some((c) => c.captures.includes(s)) && !lastSquares.includes(s));
  if (loose.length) {
    const s = pick(r, loose);
    out.push({ category: 'piece-missing', act: () => sim.lift(s) });
  }
  // An extra coin on an empty square.
  const free = empty.filter((s) => !lastSquares.includes(s));
  if (free.length) {
    const s = pick(r, free);
    out.push({ category: 'extra-piece', act: () => sim.place(s) });
  }
  // A coin stacked (centred) on a man where no king can be (not on a crowning square, not where a
  // king could land), on a board whose levels were measured.
  const men = squares.filter((s) => occupied(pos, s) && !isKing(pos, s) && !(s <= 4 || s >= 29) && !lastSquares.includes(s));
  if (measured && men.length) {
    const s = pick(r, men);
    out.push({
      category: 'stack-not-king',
      act: () => {
        sim.slide(s, 0);
        sim.place(s, { offMm: 0 });
      },
      what: `coin on the man on ${s}`,
    });
  }
  return out;
}

describe('injected illegal actions in corpus games', () => {
  it('every wrong move is caught with the right category, and the game resumes after the retraction', { timeout: 600_000 }, async () => {
    // OCA games on a board calibrated by the routine (levels measured), tinsley games on a board
    // that calibrated itself from the start position.
    const files: [string, number[], boolean][] = [
      ['OCA_2.0.pdn', soakIndexes(0, 43), true],
      ['tinsley.pdn', soakIndexes(0, 72).map((k) => k * 10), false],
    ];
    const injected: Record<string, number> = {};
    // Physically ambiguous cases, counted apart: a man on the king row that reads as high as a
    // stack (taken as crowned: an off-centre stack reads like a centred man, and crowns put on at
    // once or as ready stacks must never raise a false alarm); a centred stack on a man that reads
    // no higher than the measured two-coin level allows for.
    const missed: string[] = [];
    const caught: Record<string, number> = {};
    const failures: string[] = [];
    for (const [file, indexes, measured] of files) {
      const games = readPdn(corpusFile(file)).games;
      for (const k of indexes) {
        const g = games[k];
        const r = mulberry32(77 + k);
        const table = new Table({ seed: 300 + k, routine: measured, physics: { coding: codingFor(300 + k, measured) } });
        await table.open();
        table.setUp();
        const hand = new RandomHand(table, 4000 + k, { ...HUMAN, fastReply: 0, longPause: 0 });
        for (let ply = 0; ply < g.moves.length; ply++) {
          const node = g.moves[ply];
          // King not crowned: the man reaches the far row, no crown, and the opponent moves on.
          const reply = g.moves[ply + 1];
          if (node.move.crowned && reply && r() < 0.6) {
            const alertsBefore = table.alerts().length;
            hand.playMove(node.move, 'none');
            hand.playMove(reply.move);
            table.wait(1500);
            const a = table.alerts().slice(alertsBefore).at(-1);
            const where = `${file} game ${k} ply ${ply} not-crowned`;
            injected['not-crowned'] = (injected['not-crowned'] ?? 0) + 1;
            if (!a) missed.push(`${where}: taken as crowned`);
            else if (a.category !== 'not-crowned') failures.push(`${where}: caught as ${a.category} (${a.message})`);
            else caught['not-crowned'] = (caught['not-crowned'] ?? 0) + 1;
            table.sim.place(node.move.to); // crown it now
            table.wait(800);
            if (table.tracker.currentAlert)
              failures.push(`${where}: alert not cleared after crowning (${table.tracker.currentAlert.message})`);
            ply++;
            continue;
          }
          if (r() < 0.12 && !table.game.outcome && table.tracker.crownSquare === null) {
            // A mistake on a settled board: the move before it committed first (the hand may still be
            // nudging or turning a coin over).
            for (let w = 0; w < 20 && table.game.plies.length < ply; w++) table.wait(100);
            const options = injections(table, table.game.position, r, measured);
            const inj = pick(r, options);
            injected[inj.category] = (injected[inj.category] ?? 0) + 1;
            const before = table.sim.occupancy();
            const alertsBefore = table.alerts().length;
            const plies = table.game.plies.length;
            inj.act();
            table.wait(3500);
            if (table.game.plies.length !== plies) {
              failures.push(
                `${file} game ${k} ply ${ply} ${inj.category}: taken as a move (${table.game.plies
                  .slice(plies)
                  .map((p) => [p.move.from, ...p.move.path].join('-'))
                  .join(' ')})`,
              );
              break;
            }
            const a = table.alerts().slice(alertsBefore).at(-1);
            const where = `${file} game ${k} ply ${ply} ${inj.category}${inj.what ? ` (${inj.what})` : ''}`;
            if (!a) (inj.category === 'stack-not-king' ? missed : failures).push(`${where}: not caught`);
            else if (a.category !== inj.category) failures.push(`${where}: caught as ${a.category} (${a.message})`);
            else caught[inj.category] = (caught[inj.category] ?? 0) + 1;
            // Retract as the alert says (or, if none, by hand) and check the alert clears.
            if (a) {
              for (const f of a.fixes) {
                const want = f.action === 'place' ? table.sim.coinsAt(f.square) + f.coins : table.sim.coinsAt(f.square) - f.coins;
                if (want < 0 || want > 2)
                  failures.push(
                    `${where}: the fix list does not fit the board (${f.action} ${f.coins} on ${f.square}, which holds ${table.sim.coinsAt(f.square)})`,
                  );
                else table.sim.set(f.square, want);
              }
            }
            if (a && table.sim.occupancy().join('') !== before.join(''))
              failures.push(`${where}: the fix list does not restore the board (${a.message})`);
            for (let s = 1; s <= 32; s++) if (table.sim.coinsAt(s) !== before[s - 1]) table.sim.set(s, before[s - 1]);
            table.wait(600);
            if (table.tracker.currentAlert)
              failures.push(`${where}: alert not cleared after the retraction (${table.tracker.currentAlert.message})`);
          }
          hand.playMove(node.move);
        }
        table.wait(1000);
        const got = table.game.plies.map((p) => [p.move.from, ...p.move.path].join('-')).join(' ');
        const want = g.moves.map((n) => [n.move.from, ...n.move.path].join('-')).join(' ');
        if (got !== want)
          failures.push(`${file} game ${k}: moves differ after the injections (${table.game.plies.length}/${g.moves.length})`);
      }
    }
    console.log('injected:', JSON.stringify(injected));
    console.log('caught with the right category:', JSON.stringify(caught), 'failures:', failures.length);
    console.log('missed (physically ambiguous):', missed.length, JSON.stringify(missed));
    expect(failures).toEqual([]);
    // Every other category is caught every time; the two ambiguous ones most of the time. A coin on a
    // man is a stack wherever the square's levels were measured (36 of 37 at the last count); a man
    // left uncrowned that reads as high as an off-centre crown stack is taken as crowned rather than
    // cry wolf at every crowning (83 of 99).
    expect((caught['stack-not-king'] ?? 0) / injected['stack-not-king']).toBeGreaterThanOrEqual(0.9);
    expect((caught['not-crowned'] ?? 0) / injected['not-crowned']).toBeGreaterThanOrEqual(0.75);
    // Every category was exercised.
    expect(Object.keys(caught).sort()).toEqual([
      'backwards',
      'capture-compulsory',
      'capture-not-removed',
      'extra-piece',
      'incomplete-jump',
      'not-crowned',
      'not-diagonal',
      'own-piece-removed',
      'piece-missing',
      'stack-not-king',
      'wrong-piece-removed',
      'wrong-side',
    ]);
  });
});

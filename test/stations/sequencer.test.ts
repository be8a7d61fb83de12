// The hub's exactly-once, in-order view of a station's journal
// (src/stations/sequencer.ts): duplicates dropped, early records held and the
// gap asked for (again only after retryMs), a new game started only once the
// game before it is complete, late records of a game left behind ignored, a
// changed tags record replacing the last one; and canonical() merging
// consecutive tags records as the journal's writer does.

import { describe, expect, it } from 'vitest';
import { Sequencer, canonical, type Arrival, type SequencerAction } from '../../src/stations/sequencer.ts';
import type { JournalEntry } from '../../src/storage/journal.ts';
import { mulberry32 } from '../../src/common/prng.ts';

const START = 'B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12';
const newGame = (id: string, at: number): JournalEntry => ({
  k: 'new',
  id,
  at,
  fen: START,
  options: {},
  tags: {},
  ballot: null,
  moves: [],
});
const move = (at: number, path: number[]): JournalEntry => ({ k: 'move', at, path });
const OPENING = [
  [11, 15],
  [23, 19],
  [8, 11],
  [22, 17],
  [9, 13],
  [17, 14],
];

/** A game's arrivals: record 0 the new game, then moves. */
function game(id: string, at: number, plies = OPENING.length, prev: Arrival['prev'] = null): Arrival[] {
  const out: Arrival[] = [{ gameId: id, seq: 0, entry: newGame(id, at), prev }];
  for (let i = 0; i < plies; i++) out.push({ gameId: id, seq: i + 1, entry: move(at + i + 1, OPENING[i]!) });
  return out;
}

const applied = (acts: SequencerAction[]) => acts.filter((a) => a.type === 'apply').map((a) => `${a.gameId}:${a.seq}`);

describe('Sequencer', () => {
  it('applies records in order exactly once, whatever order and how often they arrive', () => {
    const prng = mulberry32(7);
    for (let round = 0; round < 50; round++) {
      const s = new Sequencer({ retryMs: 1000 });
      const arrivals = [...game('G1', 100), ...game('G1', 100).filter(() => prng() < 0.5)];
      for (let i = arrivals.length - 1; i > 0; i--) {
        const j = Math.floor(prng() * (i + 1));
        [arrivals[i], arrivals[j]] = [arrivals[j]!, arrivals[i]!];
      }
      const out: string[] = [];
      for (const a of arrivals) out.push(...applied(s.receive(a, 0)));
      expect(out).toEqual(game('G1', 100).map((a) => `G1:${a.seq}`));
      expect(s.position).toEqual({ gameId: 'G1', next: OPENING.length + 1 });
    }
  });

  it('asks for a gap once, again only after retryMs, and fills it from the answer', () => {
    const s = new Sequencer({ retryMs: 1000 });
    const g = game('G1', 100);
    s.receive(g[0]!, 0);
    s.receive(g[1]!, 0);
    expect(s.receive(g[4]!, 10)).toEqual([{ type: 'ask', gameId: 'G1', from: 2, to: 4 }]);
    expect(s.receive(g[5]!, 20)).toEqual([]);
    expect(s.due(500)).toEqual([]);
    expect(s.due(1500)).toEqual([{ type: 'ask', gameId: 'G1', from: 2, to: 4 }]);
    expect(applied(s.receive(g[3]!, 1600))).toEqual([]);
    expect(applied(s.receive(g[2]!, 1700))).toEqual(['G1:2', 'G1:3', 'G1:4', 'G1:5']);
    expect(s.due(5000)).toEqual([]);
  });

  it('a first record that is not a game start is held and the start asked for', () => {
    const s = new Sequencer();
    const g = game('G1', 100);
    expect(s.receive(g[3]!, 0)).toEqual([{ type: 'ask', gameId: 'G1', from: 0, to: 3 }]);
    expect(applied(s.receive(g[0]!, 1))).toEqual(['G1:0']);
    expect(applied(s.receive(g[2]!, 2))).toEqual([]);
    expect(applied(s.receive(g[1]!, 3))).toEqual(['G1:1', 'G1:2', 'G1:3']);
  });

  it('starts a new game only once the one before it is complete, then ignores the old game', () => {
    const s = new Sequencer();
    const g1 = game('G1', 100, 4);
    const g2 = game('G2', 900, 2, { gameId: 'G1', count: 5 });
    for (const a of g1.slice(0, 3)) s.receive(a, 0);
    // G2 starts while G1's records 3 and 4 are still on their way: held, and G1's tail asked for.
    expect(s.receive(g2[0]!, 10)).toEqual([{ type: 'ask', gameId: 'G1', from: 3, to: 5 }]);
    expect(applied(s.receive(g2[1]!, 11))).toEqual([]);
    expect(applied(s.receive(g1[3]!, 12))).toEqual(['G1:3']);
    expect(applied(s.receive(g1[4]!, 13))).toEqual(['G1:4', 'G2:0', 'G2:1']);
    expect(applied(s.receive(g1[2]!, 14))).toEqual([]);
    expect(s.stats.stale).toBe(1);
    expect(applied(s.receive(g2[2]!, 15))).toEqual(['G2:2']);
  });

  it('an older game never displaces a newer one; a newer one with an unknown predecessor does', () => {
    const s = new Sequencer();
    s.resume('G5', [newGame('G5', 500), move(501, [11, 15])]);
    expect(applied(s.receive(game('G4', 400)[0]!, 0))).toEqual([]);
    expect(s.position).toEqual({ gameId: 'G5', next: 2 });
    expect(applied(s.receive(game('G6', 600, 0, { gameId: 'G0', count: 3 })[0]!, 0))).toEqual(['G6:0']);
  });

  it('resumes from the hub journal: records already there are duplicates', () => {
    const s = new Sequencer();
    const g = game('G1', 100);
    s.resume(
      'G1',
      g.slice(0, 3).map((a) => a.entry),
    );
    expect(applied(s.receive(g[1]!, 0))).toEqual([]);
    expect(applied(s.receive(g[3]!, 0))).toEqual(['G1:3']);
    expect(s.stats.duplicates).toBe(1);
  });

  it('a changed tags record at the last place replaces it; the same one again is a duplicate', () => {
    const s = new Sequencer();
    const g = game('G1', 100, 1);
    for (const a of g) s.receive(a, 0);
    const tags = (White: string): JournalEntry => ({ k: 'tags', at: 200, tags: { White } });
    expect(applied(s.receive({ gameId: 'G1', seq: 2, entry: tags('Ann') }, 0))).toEqual(['G1:2']);
    expect(s.receive({ gameId: 'G1', seq: 2, entry: tags('Ann B.') }, 0)).toEqual([
      { type: 'replace', gameId: 'G1', seq: 2, entry: tags('Ann B.') },
    ]);
    expect(s.receive({ gameId: 'G1', seq: 2, entry: tags('Ann B.') }, 0)).toEqual([]);
  });

  it('canonical() keeps one tags record per run of them, the last', () => {
    const t = (n: string): JournalEntry => ({ k: 'tags', at: 1, tags: { Black: n } });
    expect(canonical([newGame('G', 0), t('a'), t('b'), move(2, [11, 15]), t('c')])).toEqual([
      newGame('G', 0),
      t('b'),
      move(2, [11, 15]),
      t('c'),
    ]);
  });
});

describe('bounded against a flood of early records', () => {
  const record = (id: string, seq: number): Arrival =>
    seq === 0
      ? { gameId: id, seq, entry: newGame(id, 1), prev: null }
      : { gameId: id, seq, entry: { k: 'clock', at: seq, clock: null } as never };

  it('30,000 records of a game that never starts: at most 1,000 held, none of them twice, and every one applied once it starts', () => {
    const s = new Sequencer({ retryMs: 100 });
    let asks = 0;
    for (let seq = 30_000; seq >= 1; seq--) asks += s.receive(record('G', seq), 0).filter((a) => a.type === 'ask').length;
    expect(s.held).toBe(1000);
    expect(s.stats.dropped).toBe(29_000);
    expect(asks).toBeGreaterThan(0);
    // (130,000 would not throw either: no spread of the held keys.)
    for (let seq = 30_001; seq <= 130_000; seq++) s.receive(record('G', seq), 0);
    expect(s.held).toBe(1000);
    // The game starts: the held records apply, the rest is asked for and applied as it comes, each exactly once.
    const applied: number[] = [];
    const take = (acts: SequencerAction[]) => {
      for (const a of acts) if (a.type === 'apply') applied.push(a.seq);
    };
    take(s.receive(record('G', 0), 1)); // (it takes the place of the farthest held, 1000)
    expect(applied).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    expect(s.held).toBe(0);
    for (let seq = 1000; seq <= 2000; seq++) take(s.receive(record('G', seq), 2));
    expect(applied.length).toBe(2001);
    expect(new Set(applied).size).toBe(2001);
  });

  it('early records of more games than it follows are dropped, not kept', () => {
    const s = new Sequencer();
    for (let g = 0; g < 500; g++) s.receive(record(`FAKE-${g}`, 5), 0);
    expect(s.held).toBe(4);
    expect(s.stats.dropped).toBe(496);
  });
});

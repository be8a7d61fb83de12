// The evaluation network (src/engine/net.ts): the shipped file is what
// bench/net-train.ts writes (its format, read back and written again byte for
// byte, within the 1 MB the issue allows) and src/engine/net-data.ts is what
// bench/net-module.ts makes of it; a malformed file is refused saying why; the
// accumulators kept move by move equal the ones computed from the position on
// random games; the search with the network scores what a plain minimax over
// the network's scores gives; and a fixed position's score is pinned (it
// changes when the network is retrained: then put the new one here).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NET_DATA_PATH, NET_FILE_PATH, netDataModule } from '../../bench/net-module.ts';
import {
  encodeNet,
  NET,
  NET_FROM_LEVEL,
  NET_INPUTS,
  NetStack,
  netEvaluate,
  parseNet,
  Searcher,
  seededRandom,
  think,
} from '../../src/engine/index.ts';
import { jumpersOf } from '../../src/engine/moves.ts';
import { legalMoves, playMove, START, type Position } from '../../src/rules/index.ts';
import { unwrap } from '../../src/common/result.ts';

const bin = (): Uint8Array => new Uint8Array(readFileSync(NET_FILE_PATH));
const capMask = (captures: readonly number[]): number => captures.reduce((m, s) => m | (1 << (s - 1)), 0);

describe('the shipped network', () => {
  it('src/engine/net-data.ts is what bench/net-module.ts writes from data/engine/net.bin, and is NET', () => {
    expect(readFileSync(NET_DATA_PATH, 'utf8')).toBe(netDataModule(bin()));
    expect(Buffer.from(encodeNet(NET)).equals(Buffer.from(bin()))).toBe(true);
  });

  it('is in the format the training script writes: 128 inputs, 8 heads, 16-bit weights, made by bench/net-train.ts, under 1 MB', () => {
    const file = bin();
    expect(file.length).toBeLessThanOrEqual(1 << 20);
    const net = unwrap(parseNet(file));
    expect(net.source).toMatch(/^bench\/net-train\.ts --data /);
    expect(net.w1).toHaveLength(NET_INPUTS * net.hidden);
    expect(net.w2).toHaveLength(8 * net.hidden);
    expect(net.b2).toHaveLength(8);
    expect([net.qa, net.qb, net.outScale]).toEqual([255, 256, 100]);
    // Trained: the first layer is not all zeros, and the heads tell positions apart.
    expect(net.w1.some((x) => x !== 0)).toBe(true);
  });

  it('scores a fixed position: the start, Black to move, and the same for White turned round (both colourings trained)', () => {
    const s = netEvaluate(NET, START.black, START.white, START.kings, true);
    // The start, and after 11-15 (White to move): the network's own numbers, pinned.
    const p = playMove(
      START,
      legalMoves(START).find((m) => m.from === 11 && m.to === 15)!,
    );
    expect([s, netEvaluate(NET, p.black, p.white, p.kings, false)]).toEqual([PINNED_START, PINNED_AFTER_11_15]);
    expect(Math.abs(s)).toBeLessThan(100); // the start is about level
  });

  it('refuses a malformed file, saying what is wrong', () => {
    const good = bin();
    const bad = (f: (b: Uint8Array) => Uint8Array): string => {
      const r = parseNet(f(good.slice()));
      return r.ok ? 'accepted' : r.error.message;
    };
    expect(bad((b) => ((b[0] = 0x58), b))).toMatch(/not a network file/);
    expect(bad((b) => b.subarray(0, b.length - 1))).toMatch(/is \d+ bytes, not \d+/);
    expect(bad((b) => ((b[4] = 64), b))).toMatch(/64 inputs and 8 heads: this engine reads 128 and 8/);
    expect(bad((b) => ((b[6] = 0), (b[7] = 0), b))).toMatch(/must be positive/);
    expect(parseNet(new Uint8Array(3)).ok).toBe(false);
  });
});

describe('the accumulators', () => {
  it('kept move by move equal the ones computed from the position, over random games (captures, crowning, kings), SIMD or not', () => {
    const random = seededRandom(39);
    const h = NET.hidden;
    const st = new NetStack(NET, 202),
      ref = new NetStack(NET, 1),
      plain = new NetStack(NET, 202, false); // the typed-array sums, beside the SIMD ones
    expect(st.acc).toBeInstanceOf(Int16Array); // (Node 20 has WebAssembly SIMD)
    expect(plain.acc).toBeInstanceOf(Int32Array);
    let checked = 0;
    for (let g = 0; g < 40; g++) {
      let pos: Position = START;
      st.refresh(0, pos.black, pos.white, pos.kings);
      plain.refresh(0, pos.black, pos.white, pos.kings);
      for (let ply = 0; ply < 200; ply++) {
        const legal = legalMoves(pos);
        if (legal.length === 0) break;
        const m = legal[Math.floor(random() * legal.length)]!;
        const wasKing = (pos.kings & (1 << (m.from - 1))) !== 0;
        st.play(ply, pos.turn === 'black', m.from - 1, m.to - 1, wasKing, m.crowned, capMask(m.captures), pos.kings);
        plain.play(ply, pos.turn === 'black', m.from - 1, m.to - 1, wasKing, m.crowned, capMask(m.captures), pos.kings);
        pos = playMove(pos, m);
        ref.refresh(0, pos.black, pos.white, pos.kings);
        expect(Array.from(st.acc.subarray((ply + 1) * h, (ply + 2) * h))).toEqual(Array.from(ref.acc.subarray(0, h)));
        expect(Array.from(plain.acc.subarray((ply + 1) * h, (ply + 2) * h))).toEqual(Array.from(ref.acc.subarray(0, h)));
        const score = st.evaluate(ply + 1, pos.turn === 'black', pos.black | pos.white);
        expect(score).toBe(netEvaluate(NET, pos.black, pos.white, pos.kings, pos.turn === 'black'));
        expect(plain.evaluate(ply + 1, pos.turn === 'black', pos.black | pos.white)).toBe(score);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(2000);
  });
});

const staticFor = (pos: Position, black: boolean): number => {
  const e = netEvaluate(NET, pos.black, pos.white, pos.kings, pos.turn === 'black');
  return black ? e : -e;
};
const jumps = (pos: Position, black: boolean): boolean =>
  black ? jumpersOf(pos.black, pos.white, pos.kings, true) !== 0 : jumpersOf(pos.white, pos.black, pos.kings, false) !== 0;

/**
 * The side to move's score by plain minimax over the network's scores, counted as the search counts (search.ts): a
 * single reply costs no depth above the horizon, a pending capture is played out past it, and at the horizon a
 * threatened capture gets one look (every move, then the exchange after it) per line.
 */
function minimax(pos: Position, depth: number, ply: number, inThreat: boolean): number {
  const btm = pos.turn === 'black';
  const capture = jumps(pos, btm);
  if (depth <= 0 && !capture) {
    if (inThreat || !jumps(pos, !btm)) return staticFor(pos, btm);
    const legal = legalMoves(pos);
    if (legal.length === 0) return -30000 + ply;
    return Math.max(
      ...legal.map((m) => {
        const next = playMove(pos, m);
        return jumps(next, !btm) ? -minimax(next, 0, ply + 1, true) : staticFor(next, btm);
      }),
    );
  }
  const horizon = depth < 1;
  const legal = legalMoves(pos);
  if (legal.length === 0) return -30000 + ply;
  const d = (horizon ? 1 : depth) - 1 + (legal.length === 1 && !horizon ? 1 : 0);
  return Math.max(...legal.map((m) => -minimax(playMove(pos, m), d, ply + 1, inThreat)));
}

describe('the search with the network', () => {
  it('scores positions as a minimax over the network’s scores gives (depths 1–3: captures, threats, single replies)', () => {
    const random = seededRandom(7);
    let compared = 0;
    for (let g = 0; g < 36; g++) {
      let pos: Position = START;
      const plies = Math.floor(random() * 30);
      for (let i = 0; i < plies && legalMoves(pos).length; i++) {
        const legal = legalMoves(pos);
        pos = playMove(pos, legal[Math.floor(random() * legal.length)]!);
      }
      if (legalMoves(pos).length === 0) continue;
      const depth = 1 + (g % 3);
      // (Late-move reductions start at depth 3 off the principal line, so from depth 4 the search is not plain minimax.)
      // The hash table's cut-offs off (its probe finds nothing): with them on, an exchange played out past the
      // horizon is stored as depth 1 and can stand for a real depth-1 node whose single reply would extend.
      const searcher = new Searcher(12);
      (searcher.tt as unknown as { probe: () => number }).probe = () => -1; // replaced for this test only: a probe that finds nothing
      expect(searcher.search(pos, { depth, net: NET, pruning: false }).score).toBe(minimax(pos, depth, 0, false) + 0);
      compared++;
    }
    expect(compared).toBeGreaterThan(30);
  });
});

describe('think and the network', () => {
  it('evaluates with the network when told (EngineTools.net), with the hand-tuned table when told null, and by NET_FROM_LEVEL by default', () => {
    const pos = playMove(START, legalMoves(START)[0]!);
    const hand = new Searcher(16).search(pos, { depth: 4 }).score;
    const withNet = new Searcher(16).search(pos, { depth: 4, net: NET }).score;
    expect(hand).not.toBe(withNet); // (the position tells the two apart)
    expect(think({ position: pos, limits: { depth: 4 } }, { net: NET }).score).toBe(withNet);
    expect(think({ position: pos, limits: { depth: 4 } }, { net: null }).score).toBe(hand);
    expect(think({ position: pos, limits: { depth: 4 } }).score).toBe(NET_FROM_LEVEL === null ? hand : withNet);
  });
});

const PINNED_START = -2;
const PINNED_AFTER_11_15 = -9;

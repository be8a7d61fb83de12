import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../cli/run.ts';
import { TEST_EGDB_DIR } from './egdb-cache.ts';
import { think } from '../../src/engine/index.ts';
import { Game, legalMoves, playMove } from '../../src/rules/index.ts';
import { makePdn, pdnFromGame, readOnePdn } from '../../src/pdn/index.ts';

// The endgame database's cache goes to the tests' shared temporary folder, not the home directory.
process.env.CROWNHEAD_CACHE = TEST_EGDB_DIR;

describe('crownhead bestmove', () => {
  it('prints the move, its score and the principal variation in PDN notation', async () => {
    const r = await run('bestmove', '--fen', 'W:W32,28,23,19:B20,11,9,5', '--depth', '12');
    expect(r.code).toBe(0);
    expect(r.out[0]).toBe('28-24');
    expect(r.out[1]).toMatch(/^score win in \d+  depth \d+  nodes \d+  time [\d.]+ s$/);
    expect(r.out[2]).toMatch(/^pv 28-24 20x27 19-15 11x18 23x14 9x18 32x14/);
  });

  it('near the end the endgame database gives the exact result, built and cached on first use', async () => {
    const r = await run('bestmove', '--fen', 'W:WK18,K19:BK1', '--depth', '4');
    expect(r.code).toBe(0);
    expect(r.out[1]).toMatch(/^score win in 21 /);
    // The line runs on through the database to the last capture: 21 plies.
    expect(r.out[2]!.split(' ').slice(1)).toHaveLength(21);
    expect(r.out[2]).toMatch(/^pv 18-14 .* 5x14$/);
    expect(readdirSync(process.env.CROWNHEAD_CACHE!)).toContain('egdb-4.bin');
  });

  it('from the start with a fixed depth, and at a level', async () => {
    const r = await run('bestmove', '--depth', '6');
    expect(r.code).toBe(0);
    expect(['9-13', '9-14', '10-14', '10-15', '11-15', '11-16', '12-16']).toContain(r.out[0]);
    const l = await run('bestmove', '--level', '3', '--seed', '5', '--time', '200ms');
    expect(l.code).toBe(0);
    expect(l.out[2]).toMatch(/^pv /);
  });

  it('one-line errors for bad flags and positions', async () => {
    const bad = async (args: string[], msg: RegExp) => {
      const r = await run('bestmove', ...args);
      expect(r.code).toBe(2);
      expect(r.err[0]).toMatch(msg);
    };
    await bad(['--fen', 'X:bad'], /^crownhead bestmove: bad --fen: .*turn/);
    await bad(['--time', 'soon'], /--time must be a duration like 1s/);
    await bad(['--depth', '0'], /--depth must be between 1 and 100/);
    await bad(['--level', '11'], /--level must be between 1 and 10/);
    await bad(['--time', '1s', '--depth', '3'], /give only one of --time, --depth and --nodes/);
    await bad(['--dpeth', '3'], /unknown option --dpeth/);
    const lost = await run('bestmove', '--fen', 'B:W5,6,10:B1');
    expect(lost.code).toBe(1);
    expect(lost.err).toEqual(['crownhead bestmove: Black has no legal move (the game is lost)']);
  });
});

describe('crownhead analyse', () => {
  const dir = mkdtempSync(join(tmpdir(), 'crownhead-analyse-'));

  it('marks a blunder ?? with the better move, and writes --out', async () => {
    // A game from a ballot where, at the first chance, a side plays a move that a
    // 5-ply search says drops at least two men's worth against the best one.
    const game = Game.fromBallot(8).game;
    let blunderPly = -1;
    while (game.plies.length < 16) {
      const pos = game.position;
      let move = think({ position: pos, limits: { depth: 4 } }).move!;
      if (blunderPly < 0) {
        const scored = legalMoves(pos).map((m) => ({ m, s: -think({ position: playMove(pos, m), limits: { depth: 4 } }).score }));
        const best = Math.max(...scored.map((x) => x.s));
        const worst = scored.reduce((a, b) => (b.s < a.s ? b : a));
        if (best - worst.s >= 200) [move, blunderPly] = [worst.m, game.plies.length];
      }
      game.play(move);
    }
    expect(blunderPly).toBeGreaterThanOrEqual(0);
    const file = join(dir, 'game.pdn');
    writeFileSync(file, makePdn(pdnFromGame(game, { tags: [['Event', 'analysis test']] })));
    const out = join(dir, 'annotated.pdn');
    const r = await run('analyse', file, '--depth', '4', '--out', out);
    expect(r.code).toBe(0);
    expect(r.err[0]).toMatch(/^game 1 "analysis test": 16 moves, \d+ mistakes?, [1-9]\d* blunders?$/);
    const annotated = readOnePdn(readFileSync(out, 'utf8'));
    const node = annotated.moves[blunderPly]!;
    expect(node.strength).toBe('??');
    expect(node.after.join(' ')).toMatch(/^Blunder: \d+[-x]\d+ was better \([+-]\d\.\d\d|win in \d+ against/);
    // The moves themselves are unchanged.
    expect(annotated.moves.map((m) => m.move.path.join())).toEqual(game.plies.map((p) => p.move.path.join()));
    // Two stretches of the game at once, an engine worker each: the same blunder found.
    const out2 = join(dir, 'annotated-2.pdn');
    const r2 = await run('analyse', file, '--depth', '4', '--threads', '2', '--out', out2);
    expect(r2.code).toBe(0);
    expect(readOnePdn(readFileSync(out2, 'utf8')).moves[blunderPly]!.strength).toBe('??');
  });

  it('one-line errors for a missing file, an unreadable game and bad flags', async () => {
    const missing = await run('analyse', join(dir, 'nope.pdn'), '--depth', '2');
    expect(missing.code).toBe(2);
    expect(missing.err[0]).toMatch(/^crownhead analyse: cannot read .*nope\.pdn: no such file$/);
    const junk = join(dir, 'junk.pdn');
    writeFileSync(junk, '1. 11-15 11-15 *');
    const bad = await run('analyse', junk, '--depth', '2');
    expect(bad.code).toBe(2);
    expect(bad.err[0]).toMatch(/^crownhead analyse: .*junk\.pdn: /);
    // One bad game among good ones: the good ones are analysed, the bad one named, exit 1.
    const mixed = join(dir, 'mixed.pdn');
    writeFileSync(mixed, '[Event "good"]\n1. 11-15 23-19 *\n\n[Event "bad"]\n1. 11-15 11-15 *\n\n[Event "good too"]\n1. 9-13 *\n');
    const mixedOut = join(dir, 'mixed-annotated.pdn');
    const part = await run('analyse', mixed, '--depth', '2', '--out', mixedOut);
    expect(part.code).toBe(1);
    expect(part.err.filter((l) => /not analysed: .*11-15/.test(l))).toHaveLength(1);
    expect(part.err.filter((l) => /^game \d+ "good( too)?": \d+ moves/.test(l))).toHaveLength(2);
    expect(readFileSync(mixedOut, 'utf8').match(/\[Event "good( too)?"\]/g)).toHaveLength(2);
    const none = await run('analyse');
    expect(none.err[0]).toMatch(/analyse needs exactly one GAME.pdn/);
    const t = await run('analyse', junk, '--time', '-1');
    expect(t.code).toBe(2);
    const threads = await run('analyse', junk, '--threads', '0');
    expect(threads.code).toBe(2);
    expect(threads.err[0]).toMatch(/--threads/);
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { LineEngine, type LineEngineOptions } from '../../src/engine-host/line-engine.ts';
import { eloOf, playMatch, ProtocolPlayer, quietHistory, type Player } from '../../src/engine-host/match.ts';
import { think } from '../../src/engine/index.ts';
import { Game, legalMoves, makeFen, parseFen, resolveMove, START } from '../../src/rules/index.ts';
import { TEST_EGDB_DIR } from './egdb-cache.ts';
import { unwrap } from '../../src/common/result.ts';

// `crownhead engine`'s line protocol, in-process and as a child process driven by the match harness.
function session(options: LineEngineOptions = {}): {
  send: (line: string) => Promise<string[]>;
  /** Handles a line without waiting for its answers: what it answered at once. */
  post: (line: string) => string[];
  alive: () => boolean;
  engine: LineEngine;
} {
  const out: string[] = [];
  const e = new LineEngine((l) => out.push(l), options);
  let alive = true;
  return {
    send: async (line) => {
      out.length = 0;
      alive = e.handle(line);
      await e.settled();
      return [...out];
    },
    post: (line) => {
      out.length = 0;
      alive = e.handle(line);
      return [...out];
    },
    alive: () => alive,
    engine: e,
  };
}

describe('the line protocol (in-process)', () => {
  it('isready, go with a depth, a time or a node count: an info line, then a legal best move in long notation', async () => {
    const s = session();
    expect(await s.send('isready')).toEqual(['readyok']);
    for (const limit of ['depth 4', '50', 'nodes 3000']) {
      const [info, best] = await s.send(`go ${makeFen(START)} ${limit}`);
      expect(info).toMatch(/^info depth \d+ score -?\d+ nodes \d+ time \d+ pv [\d\-x ]+$/);
      const text = best!.replace(/^bestmove /, '');
      expect(() => resolveMove(START, text)).not.toThrow();
    }
    // A capture is given with every landing square.
    const [, best] = await s.send('go W:W32,28,23,19:B20,11,9,5 depth 12');
    expect(best).toBe('bestmove 28-24');
    expect((await s.send('go W:W27:B23,14,6 depth 2'))[1]).toBe('bestmove 27x18x9x2');
  });

  it('a win is reported in plies; no move is "bestmove none"', async () => {
    const s = session();
    expect((await s.send('go W:W32,28,23,19:B20,11,9,5 depth 12'))[0]).toMatch(/ score win \d+ /);
    expect(await s.send('go B:W5,6,10:B1 100')).toEqual(['info depth 0 score loss 0 nodes 0 time 0 pv', 'bestmove none']);
  });

  it('the history gives repetitions: the side behind steers into a position of the game, a draw', async () => {
    const s = session();
    // White's one king against two: lost without history; with the position after 32-28 earlier in the game, 0.
    const pos = 'W:WK32:BK1,K5';
    expect((await s.send(`go ${pos} depth 6`))[0]).toMatch(/ score -\d\d+ /);
    const [info, best] = await s.send(
      `go ${pos} depth 6 history ${makeFen(unwrap(parseFen('B:WK28:BK1,K5')))} ${makeFen(unwrap(parseFen('W:WK27:BK1,K5')))}`,
    );
    expect(info).toMatch(/ score 0 /);
    expect(best).toBe('bestmove 32-28');
  });

  it('a bad line is answered with an error naming the problem, and the session goes on; quit ends it', async () => {
    const s = session();
    expect((await s.send('go'))[0]).toMatch(/^error go needs a position/);
    expect((await s.send('go B:W1 100'))[0]).toMatch(/^error /);
    expect((await s.send(`go ${makeFen(START)} soon`))[0]).toMatch(/^error the limit is milliseconds/);
    expect((await s.send(`go ${makeFen(START)} depth 0`))[0]).toMatch(/^error depth must be a whole number from 1 to 100/);
    expect((await s.send(`go ${makeFen(START)} 100 moves`))[0]).toMatch(/^error after the limit, "history FEN…"/);
    expect((await s.send('hello'))[0]).toMatch(/^error unknown command "hello"/);
    expect(await s.send('isready')).toEqual(['readyok']);
    expect(await s.send('newgame')).toEqual([]);
    await s.send('quit');
    expect(s.alive()).toBe(false);
  });
});

describe('pondering in the line protocol (in-process: the ponder search stops at its depth, then waits to be told)', () => {
  const expected = Game.fromBallot(40).game.position; // the position after the reply the engine expects
  const nodesOf = (info: string): number => Number(/ nodes (\d+) /.exec(info)![1]);
  const tick = () => new Promise((r) => setTimeout(r, 0));

  it('go ponder, then ponderhit: the search for the move starts on the ponder search’s hash table — less work than a cold search, same depth', async () => {
    let hitNodes = 0,
      coldNodes = 0;
    for (const ballot of [17, 40, 77]) {
      const pos = Game.fromBallot(ballot).game.position;
      const s = session({ ponderDepth: 11 });
      s.post(`go ponder ${makeFen(pos)} depth 11`);
      await tick();
      expect(s.post('isready')).toEqual(['readyok']); // answered at once while pondering
      const [info, best] = await s.send('ponderhit');
      const cold = await session().send(`go ${makeFen(pos)} depth 11`);
      expect(info).toMatch(/^info depth 11 /);
      expect(() => resolveMove(pos, best!.replace(/^bestmove /, ''))).not.toThrow();
      expect(nodesOf(info!)).toBeLessThan(nodesOf(cold[0]!));
      hitNodes += nodesOf(info!);
      coldNodes += nodesOf(cold[0]!);
    }
    expect(hitNodes).toBeLessThan(coldNodes / 3); // 2026-11-28: 13 % of the cold searches’ nodes (59 k of 463 k)
  });

  it('go ponder, then stop (another reply was played): the ponder search’s answer, then the real position searched afresh', async () => {
    const s = session({ ponderDepth: 11 });
    s.post(`go ponder ${makeFen(expected)} depth 11`);
    await tick();
    const [, ponderBest] = await s.send('stop');
    expect(() => resolveMove(expected, ponderBest!.replace(/^bestmove /, ''))).not.toThrow();
    const other = Game.fromBallot(41).game.position;
    const [info, best] = await s.send(`go ${makeFen(other)} depth 11`);
    const cold = await session().send(`go ${makeFen(other)} depth 11`);
    expect(info).toMatch(/^info depth 11 /);
    expect(() => resolveMove(other, best!.replace(/^bestmove /, ''))).not.toThrow();
    expect(nodesOf(info!)).toBeGreaterThan(nodesOf(cold[0]!) / 4);
    // A go while pondering stops the ponder search first (its answer, then the go's).
    s.post(`go ponder ${makeFen(expected)} depth 11`);
    await tick();
    const both = await s.send(`go ${makeFen(other)} depth 3`);
    expect(both.filter((l) => l.startsWith('bestmove'))).toHaveLength(2);
    expect(await s.send('ponderhit')).toEqual(['error ponderhit without a go ponder']);
  });
});

describe('the match harness drives `crownhead engine` as a child process', () => {
  const root = resolve(import.meta.dirname, '../..');
  const child = new ProtocolPlayer('crownhead engine', process.execPath, [resolve(root, 'bin/crownhead.js'), 'engine', '--no-book'], {
    cwd: root,
    env: { ...process.env, CROWNHEAD_FROM_SOURCE: '1', CROWNHEAD_CACHE: TEST_EGDB_DIR },
  });
  afterAll(() => child.close());
  // An in-process player (any engine can be one): our search at depth 1.
  const shallow: Player = {
    name: 'depth 1',
    newGame: async () => undefined,
    move: async (game) => think({ position: game.position, limits: { depth: 1 } }).move!,
    close: async () => undefined,
  };

  it('answers isready, then plays a ballot with both colours to the end; every move legal', async () => {
    await child.ready();
    const m = await playMatch(child, shallow, [33], { depth: 3 });
    expect(m.games).toBe(2);
    expect(m.wins + m.draws + m.losses).toBe(2);
    for (const r of m.records) {
      expect(r.reason).not.toMatch(/answered|exited/);
      expect(r.game.outcome).not.toBeNull();
      expect(r.game.plies.length).toBeGreaterThan(3);
    }
    expect(child.lastInfo).toMatch(/^info depth /);
  }, 120_000);

  it('ponders in its worker: isready answered meanwhile, stop ends the ponder search cleanly, ponderhit answers the move', async () => {
    const expected = Game.fromBallot(60).game.position;
    // No depth or time of its own: it would search until told.
    await child.command(`go ponder ${makeFen(expected)} 200`);
    expect(await child.command('isready', 'readyok')).toBe('readyok');
    const stopped = (await child.command('stop', 'bestmove')).split(/\s+/)[1]!;
    expect(() => resolveMove(expected, stopped)).not.toThrow();
    // Another reply was played: that position is searched afresh, to its limit.
    const other = Game.fromBallot(61).game.position;
    const best = (await child.command(`go ${makeFen(other)} depth 6`, 'bestmove')).split(/\s+/)[1]!;
    expect(child.lastInfo).toMatch(/^info depth 6 /);
    expect(() => resolveMove(other, best)).not.toThrow();
    // The expected reply was played: ponderhit, and the move for the go's limit.
    await child.command(`go ponder ${makeFen(expected)} depth 8`);
    const hit = (await child.command('ponderhit', 'bestmove')).split(/\s+/)[1]!;
    expect(child.lastInfo).toMatch(/^info depth 8 /);
    expect(() => resolveMove(expected, hit)).not.toThrow();
    await child.ready();
  }, 60_000);

  it('the history it is sent: the positions since the last capture or man move, as many as the 40-move count', () => {
    const { game } = Game.fromBallot(1);
    expect(quietHistory(game)).toEqual([]); // the ballot's last move was a man's: no position since
    // Kings only from here: every move is quiet, and the history grows with the count (the engine takes
    // its length as the count: one more would have it see a 40-move draw a ply early).
    const kings = new Game(unwrap(parseFen('B:WK29:BK4')));
    const shuffle = ['4-8', '29-25', '8-4', '25-29', '4-8', '29-25'];
    for (const text of shuffle) {
      const h = quietHistory(kings);
      expect(h.length).toBe(kings.quietPlies);
      if (h.length) expect(makeFen(h[h.length - 1]!)).toBe(makeFen(kings.plies[kings.plies.length - 1]!.before));
      kings.play(resolveMove(kings.position, text));
    }
    expect(quietHistory(kings).length).toBe(6);
    expect(kings.quietPlies).toBe(6);
    // A capture starts it again: only the positions after it.
    const cap = new Game(unwrap(parseFen('W:WK29,K18:BK22,K1')));
    cap.play(resolveMove(cap.position, '18x25'));
    expect(quietHistory(cap)).toEqual([]);
    cap.play(resolveMove(cap.position, '1-6'));
    expect(quietHistory(cap).map(makeFen)).toEqual([makeFen(cap.plies[0]!.after)]);
    expect(cap.quietPlies).toBe(1);
  });
});

describe('match scores as Elo with a 95 % interval', () => {
  it('an even score is 0, three quarters about +191; the interval holds the estimate and narrows with games', () => {
    expect(eloOf({ games: 24, wins: 6, draws: 12, losses: 6 }).elo).toBeCloseTo(0);
    const e = eloOf({ games: 24, wins: 12, draws: 12, losses: 0 });
    expect(e.elo).toBeCloseTo(190.8, 0);
    expect(e.low).toBeLessThan(e.elo);
    expect(e.high).toBeGreaterThan(e.elo);
    const more = eloOf({ games: 240, wins: 120, draws: 120, losses: 0 });
    expect(more.high - more.low).toBeLessThan(e.high - e.low);
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { LineEngine } from '../../src/engine-host/line-engine.ts';
import { eloOf, playMatch, ProtocolPlayer, quietHistory, type Player } from '../../src/engine-host/match.ts';
import { think } from '../../src/engine/index.ts';
import { Game, legalMoves, makeFen, parseFen, resolveMove, START } from '../../src/rules/index.ts';
import { TEST_EGDB_DIR } from './egdb-cache.ts';

// `crownhead engine`'s line protocol, in-process and as a child process driven by the match harness.
function session(): { send: (line: string) => string[]; alive: () => boolean } {
  const out: string[] = [];
  const e = new LineEngine((l) => out.push(l));
  let alive = true;
  return {
    send: (line) => {
      out.length = 0;
      alive = e.handle(line);
      return [...out];
    },
    alive: () => alive,
  };
}

describe('the line protocol (in-process)', () => {
  it('isready, go with a depth, a time or a node count: an info line, then a legal best move in long notation', () => {
    const s = session();
    expect(s.send('isready')).toEqual(['readyok']);
    for (const limit of ['depth 4', '50', 'nodes 3000']) {
      const [info, best] = s.send(`go ${makeFen(START)} ${limit}`);
      expect(info).toMatch(/^info depth \d+ score -?\d+ nodes \d+ time \d+ pv [\d\-x ]+$/);
      const text = best!.replace(/^bestmove /, '');
      expect(() => resolveMove(START, text)).not.toThrow();
    }
    // A capture is given with every landing square.
    const [, best] = s.send('go W:W32,28,23,19:B20,11,9,5 depth 12');
    expect(best).toBe('bestmove 28-24');
    expect(s.send('go W:W27:B23,14,6 depth 2')[1]).toBe('bestmove 27x18x9x2');
  });

  it('a win is reported in plies; no move is "bestmove none"', () => {
    const s = session();
    expect(s.send('go W:W32,28,23,19:B20,11,9,5 depth 12')[0]).toMatch(/ score win \d+ /);
    expect(s.send('go B:W5,6,10:B1 100')).toEqual(['info depth 0 score loss 0 nodes 0 time 0 pv', 'bestmove none']);
  });

  it('the history gives repetitions: the side behind steers into a position of the game, a draw', () => {
    const s = session();
    // White's one king against two: lost without history; with the position after 32-28 earlier in the game, 0.
    const pos = 'W:WK32:BK1,K5';
    expect(s.send(`go ${pos} depth 6`)[0]).toMatch(/ score -\d\d+ /);
    const [info, best] = s.send(`go ${pos} depth 6 history ${makeFen(parseFen('B:WK28:BK1,K5'))} ${makeFen(parseFen('W:WK27:BK1,K5'))}`);
    expect(info).toMatch(/ score 0 /);
    expect(best).toBe('bestmove 32-28');
  });

  it('a bad line is answered with an error naming the problem, and the session goes on; quit ends it', () => {
    const s = session();
    expect(s.send('go')[0]).toMatch(/^error go needs a position/);
    expect(s.send('go B:W1 100')[0]).toMatch(/^error /);
    expect(s.send(`go ${makeFen(START)} soon`)[0]).toMatch(/^error the limit is milliseconds/);
    expect(s.send(`go ${makeFen(START)} depth 0`)[0]).toMatch(/^error depth must be a whole number from 1 to 100/);
    expect(s.send(`go ${makeFen(START)} 100 moves`)[0]).toMatch(/^error after the limit, "history FEN…"/);
    expect(s.send('hello')[0]).toMatch(/^error unknown command "hello"/);
    expect(s.send('isready')).toEqual(['readyok']);
    expect(s.send('newgame')).toEqual([]);
    s.send('quit');
    expect(s.alive()).toBe(false);
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

  it('the history it is sent: the positions since the last capture or man move', () => {
    const { game } = Game.fromBallot(1);
    const h = quietHistory(game);
    expect(h.length).toBe(1); // the ballot's last move was a man's: only the position before it
    expect(legalMoves(h[0]!).length).toBeGreaterThan(0);
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

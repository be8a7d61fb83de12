import { describe, expect, it } from 'vitest';
import {
  BALLOTS,
  FORTY_MOVE_PLIES,
  Game,
  GameError,
  MoveError,
  START,
  hashKey,
  hashPosition,
  legalMoves,
  parseFen,
  playMove,
} from '../../src/rules/index.ts';
import { corpusFile } from '../harness/corpus.ts';
import { unwrap } from '../../src/common/result.ts';

describe('game end and draws', () => {
  it('a side with no legal move loses', () => {
    const g = new Game(unwrap(parseFen('W:W29:B25,22')));
    expect(g.outcome).toEqual({ winner: 'black', reason: 'no-moves' });
    const h = new Game(unwrap(parseFen('B:W14:B10')));
    h.playText('10x17');
    expect(h.outcome).toEqual({ winner: 'black', reason: 'no-moves' });
    expect(() => h.playText('1-5')).toThrow(GameError);
  });

  it('threefold repetition: claimable on the move that makes the third occurrence; play may go on', () => {
    const g = new Game(unwrap(parseFen('B:WK32:BK1')));
    const cycle = ['1-6', '32-27', '6-1', '27-32'];
    for (const m of cycle) g.playText(m);
    expect(g.occurrences()).toBe(2);
    expect(g.drawClaim()).toBeNull();
    for (const m of cycle.slice(0, 3)) g.playText(m);
    // White's 27-32 would make the start position stand a third time.
    expect(g.drawClaimingMoves().map((c) => [c.move.from, c.move.to, c.claim])).toContainEqual([27, 32, 'repetition']);
    g.playText('27-32');
    expect(g.occurrences()).toBe(3);
    expect(g.drawClaim()).toBe('repetition');
    expect(g.outcome).toBeNull(); // not automatic by default: the record may play on
    expect(() => Game.standard().claimDraw()).toThrow(/no draw can be claimed/);
  });

  it('with autoDraw the third occurrence ends the game', () => {
    const g = new Game(unwrap(parseFen('B:WK32:BK1')), { autoDraw: true });
    for (const m of ['1-6', '32-27', '6-1', '27-32', '1-6', '32-27', '6-1', '27-32']) g.playText(m);
    expect(g.outcome).toEqual({ winner: null, reason: 'repetition' });
  });

  it('40-move rule: 80 plies with no capture and no man moving', () => {
    // Two kings wander without repeating a position; a man move resets the count.
    const m = new Game(unwrap(parseFen('B:WK32,12:BK1,21')));
    m.playText('1-6');
    expect(m.quietPlies).toBe(1);
    m.playText('12-8'); // a man moves: the count starts again
    expect(m.quietPlies).toBe(0);
    const g = new Game(unwrap(parseFen('B:WK32:BK1')));
    const seen = new Set<number>([g.hash]);
    // Depth-first walk of king moves that never repeats a position.
    const walk = (): boolean => {
      if (g.quietPlies === FORTY_MOVE_PLIES - 1) return true;
      for (const m of g.legalMoves()) {
        if (m.captures.length) continue;
        if (seen.has(hashKey(hashPosition(playMove(g.position, m))))) continue;
        g.play(m);
        seen.add(g.hash);
        if (walk()) return true;
        seen.delete(g.hash);
        g.undo();
      }
      return false;
    };
    expect(walk()).toBe(true);
    expect(g.quietPlies).toBe(FORTY_MOVE_PLIES - 1);
    expect(g.drawClaim()).toBeNull();
    expect(g.drawClaimingMoves().some((c) => c.claim === 'forty-move')).toBe(true);
    const last = g
      .legalMoves()
      .find((m) => (g.position.kings & (1 << (m.from - 1))) !== 0 && !seen.has(hashKey(hashPosition(playMove(g.position, m)))))!;
    g.play(last);
    expect(g.quietPlies).toBe(FORTY_MOVE_PLIES);
    expect(g.drawClaim()).toBe('forty-move');
    expect(g.claimDraw()).toEqual({ winner: null, reason: 'forty-move' });
  });

  it('resignation, agreement and time', () => {
    expect(Game.standard().resign('black')).toEqual({ winner: 'white', reason: 'resignation' });
    expect(Game.standard().agreeDraw()).toEqual({ winner: null, reason: 'agreement' });
    expect(Game.standard().timeForfeit('white')).toEqual({ winner: 'black', reason: 'time' });
    const g = Game.standard();
    g.resign('white');
    expect(() => g.agreeDraw()).toThrow(/over/);
  });

  it('undo takes a move back and restores hash and counts', () => {
    const g = Game.standard();
    const h0 = g.hash;
    g.playText('11-15');
    g.undo();
    expect(g.hash).toBe(h0);
    expect(g.position).toEqual(START);
    expect(() => g.undo()).toThrow(/no move to take back/);
  });

  it('incremental hashes equal hashes from scratch over a real game', () => {
    const g = Game.standard();
    for (const m of '11-15 23-18 8-11 27-23 4-8 23-19 10x14 19x10 14x23 26x19'.split(' ')) {
      g.playText(m);
      expect(g.hash).toBe(hashKey(hashPosition(g.position)));
    }
  });

  it('moves given as text: invalid, illegal and ambiguous are told apart', () => {
    const g = Game.standard();
    expect(() => g.playText('hello')).toThrow(MoveError);
    try {
      g.playText('22-18');
    } catch (e) {
      expect((e as MoveError).code).toBe('illegal');
      expect((e as MoveError).message).toMatch(/the piece on 22 is White's, and Black is to move/);
    }
    try {
      g.playText('14-18');
    } catch (e) {
      expect((e as MoveError).message).toMatch(/no piece stands on 14/);
    }
    const k = new Game(unwrap(parseFen('B:W14,15,22,23,6,7:BK10')));
    expect(k.legalMoves().length).toBeGreaterThan(1);
  });
});

describe('variants', () => {
  it('first player by choice: White, or random from an injected source', () => {
    expect(Game.standard({ firstPlayer: 'white' }).turn).toBe('white');
    expect(Game.standard({ firstPlayer: 'random', random: () => 0.9 }).turn).toBe('white');
    expect(Game.standard({ firstPlayer: 'random', random: () => 0.1 }).turn).toBe('black');
    expect(Game.standard().turn).toBe('black');
  });

  it('huffing: jumping is optional, and the piece that failed to jump may be huffed', () => {
    const g = new Game(unwrap(parseFen('B:W14,30:B10,1')), { huffing: true });
    expect(g.legalMoves().some((m) => m.captures.length === 0)).toBe(true);
    g.playText('1-5'); // Black declines 10x17
    expect(g.huffable()).toEqual([10]);
    expect(() => g.huffAndPlay(5, '30-26')).toThrow(/cannot be huffed/);
    const ply = g.huffAndPlay(10, '30-26');
    expect(ply.huff).toBe(10);
    expect(g.position.black).toBe(1 << 4); // only the man on 5 is left
    g.undo();
    expect(g.position.black & (1 << 9)).not.toBe(0); // the huffed man is back
    expect(g.hash).toBe(hashKey(hashPosition(g.position)));
  });

  it('huffing follows the piece that could have jumped when it moved instead', () => {
    const g = new Game(unwrap(parseFen('B:W14,30:B10')), { huffing: true });
    g.playText('10-15');
    expect(g.huffable()).toEqual([15]);
    expect(new Game(unwrap(parseFen('B:W14,30:B10,1'))).huffable()).toEqual([]);
  });

  it('men continue jumping after crowning when the variant says so', () => {
    const g = new Game(unwrap(parseFen('B:W26,27,5:B22')), { crownContinue: true });
    const ply = g.playText('22x31x24');
    expect(ply.move.captures).toEqual([26, 27]);
    expect(ply.move.crowned).toBe(true);
  });
});

describe('three-move ballots', () => {
  it('the embedded table equals acf_three_move_ballots.tsv', () => {
    const rows = corpusFile('acf_three_move_ballots.tsv')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split('\t'));
    expect(rows.length).toBe(174);
    expect(BALLOTS.map((b) => [String(b.number), b.moves.join(' '), b.status, b.name])).toEqual(
      rows.map((r) => [r[0], r[1], r[2], r[3] ?? '']),
    );
    const counts = { crossboard: 0, mailplay: 0, barred: 0 };
    for (const b of BALLOTS) counts[b.status]++;
    expect(counts).toEqual({ crossboard: 144, mailplay: 12, barred: 18 });
  });

  it('every ballot plays legally from the start', () => {
    for (const b of BALLOTS) {
      const { game } = Game.fromBallot(b.number);
      expect(game.plies.length).toBe(3);
      expect(game.turn).toBe('white');
    }
  });

  it('a random ballot is never a barred one; an unknown number is refused', () => {
    for (let k = 0; k < 50; k++) {
      const { ballot } = Game.fromBallot('random', { random: () => k / 50 });
      expect(ballot.status).not.toBe('barred');
    }
    expect(() => Game.fromBallot(175)).toThrow(/no ballot 175/);
    expect(legalMoves(Game.fromBallot(1).game.position).length).toBeGreaterThan(0);
  });
});

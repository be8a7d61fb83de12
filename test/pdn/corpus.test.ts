import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPdn, makePdnFile, gameFromPdn, resultWinner, type PdnGame } from '../../src/pdn/index.ts';
import { CORPUS, corpusFile, corpusPdnFiles } from '../harness/corpus.ts';

// Games per file, counted by hand from the files ([Event tags; 11_man_english has one [FEN] per line).
const EXPECTED: Record<string, { games: number; moves: number }> = {
  '11_man_english.pdn': { games: 2400, moves: 0 },
  'OCA_2.0.pdn': { games: 43, moves: 2280 },
  'beginner.pdn': { games: 58, moves: 0 },
  'borderclassics.pdn': { games: 183, moves: 62 },
  'bridges.pdn': { games: 267, moves: 0 },
  'gem.pdn': { games: 162, moves: 0 },
  'goulds.pdn': { games: 262, moves: 0 },
  'inferno.pdn': { games: 68, moves: 3306 },
  'lpc.pdn': { games: 100, moves: 0 },
  'principles_of_strategy.pdn': { games: 16, moves: 594 },
  'tinsley.pdn': { games: 723, moves: 35986 },
  'tricks_traps_and_shots.pdn': { games: 91, moves: 3017 },
};

const comparable = (g: PdnGame) => ({
  tags: [...g.tags].sort(([a], [b]) => a.localeCompare(b)),
  start: g.start,
  result: g.result,
  trailing: g.trailing,
  moves: g.moves.map((m) => ({
    path: [m.move.from, ...m.move.path],
    before: m.before,
    after: m.after,
    nags: m.nags,
    strength: m.strength,
  })),
});

describe('the corpus (data/corpus)', () => {
  const files = corpusPdnFiles();

  it('holds the upstream files byte for byte (SHA256SUMS)', () => {
    const sums = readFileSync(join(CORPUS, 'SHA256SUMS'), 'utf8').trim().split('\n');
    expect(sums.length).toBe(13);
    for (const line of sums) {
      const [sum, name] = line.split(/\s+/);
      const actual = createHash('sha256')
        .update(readFileSync(join(CORPUS, name!)))
        .digest('hex');
      expect(`${actual}  ${name}`).toBe(`${sum}  ${name}`);
    }
  });

  it('has the files we expect', () => {
    expect(files).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const file of Object.keys(EXPECTED)) {
    it(`${file}: every game replays and round-trips through the writer`, () => {
      const { games, errors } = readPdn(corpusFile(file));
      expect(games.length).toBe(EXPECTED[file].games);
      expect(games.reduce((n, g) => n + g.moves.length, 0)).toBe(EXPECTED[file].moves);
      if (file !== 'tinsley.pdn') expect(errors).toEqual([]);
      const written = makePdnFile(games);
      for (const line of written.split('\n')) expect(line.length).toBeLessThan(80);
      const again = readPdn(written);
      expect(again.errors).toEqual([]);
      expect(again.games.map(comparable)).toEqual(games.map(comparable));
      expect(makePdnFile(again.games)).toBe(written);
      // Main lines replay in the rules engine to the same final position.
      for (const g of games) {
        const replay = gameFromPdn(g);
        expect(replay.plies.length).toBe(g.moves.length);
      }
    });
  }

  it('rejects exactly one game: tinsley.pdn "Petal 1981, game 18", move 62 for Black, 32-28 with no piece on 32', () => {
    const { errors } = readPdn(corpusFile('tinsley.pdn'));
    expect(errors.length).toBe(1);
    const e = errors[0];
    expect(e.code).toBe('illegal-move');
    expect(e.game).toBe('game 541 "Petal 1981, game 18"');
    expect(e.moveNumber).toBe(62);
    expect(e.side).toBe('Black');
    expect(e.text).toBe('32-28');
    expect(e.message).toBe('game 541 "Petal 1981, game 18", line 5588: move 62 for Black, "32-28": illegal move: no piece stands on 32');
  });

  it('tinsley.pdn: x misused for a plain move, and full capture paths', () => {
    const { games } = readPdn(corpusFile('tinsley.pdn'));
    const first = games[0];
    const tenFourteen = first.moves.find((m) => m.text === '10x14')!;
    expect(tenFourteen.move.captures).toEqual([]);
    const path = first.moves.find((m) => m.text === '24x15x6')!;
    expect(path.move.path).toEqual([15, 6]);
    expect(first.result).toBe('1/2-1/2');
  });

  it('tinsley.pdn: four games repeat a position a third time and play on', () => {
    const { games } = readPdn(corpusFile('tinsley.pdn'));
    const playOn = games.filter((g) => {
      const game = gameFromPdn(g);
      return game.plies.some((p, k) => game.plies.filter((q, j) => j <= k && q.hash === p.hash).length >= 3 && k < game.plies.length - 1);
    });
    expect(playOn.length).toBe(4);
  });

  it('tricks_traps_and_shots.pdn: a result followed on the same line by the next game', () => {
    const { games } = readPdn(corpusFile('tricks_traps_and_shots.pdn'));
    const k = games.findIndex((g) => g.tags.some(([n, v]) => n === 'Event' && v === "TTS Game 48 Christie's Shot"));
    expect(k).toBeGreaterThan(0);
    expect(games[k - 1].result).toBe('0-1');
    expect(games[k].moves.length).toBeGreaterThan(0);
  });

  it('tricks_traps_and_shots.pdn: short captures two routes fit are settled by the moves that follow', () => {
    const { games } = readPdn(corpusFile('tricks_traps_and_shots.pdn'));
    const warned = games.flatMap((g) => g.warnings).filter((w) => w.includes('ambiguous'));
    expect(warned).toEqual([
      '10x26 is ambiguous (10x17x26 or 10x19x26); 10x17x26 taken, the only one the next moves agree with',
      '32x7 is ambiguous (32x23x14x7 or 32x23x16x7); 32x23x14x7 taken, the only one the next moves agree with',
    ]);
  });

  it('problem sets: FEN set-ups with [Setup] or [SetUp], trailing dots, bodies that are only a result', () => {
    const { games } = readPdn(corpusFile('gem.pdn'));
    expect(games[0].start.kings).not.toBe(0);
    expect(games.every((g) => g.moves.length === 0)).toBe(true);
    expect(resultWinner(games[0].result)).toBe('black');
  });
});

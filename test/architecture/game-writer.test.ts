// One writer of the game at the table: src/game/table.ts is the
// only code that plays, takes back or ends it (with the one fold of a journal
// record into a Game, src/game/fold.ts, that it replays its records through:
// the table is the only code that holds its game as a Game to hand it). The type says so —
// GameTable.game, the session's game and the tracker's are a ReadonlyGame,
// with none of Game's changing methods (test/tracking/one-writer.test.ts
// checks the types) — and this scan says so of the source: no call of a
// changing method on a game anywhere in src/ outside the rules and the table,
// but in the named files that build a Game of their own from a record, a
// ballot or a book line (never the game at a table).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, blank, sourceFiles } from './scan.ts';

/** Game's methods that change it. */
const CHANGING = ['play', 'playText', 'huffAndPlay', 'undo', 'resign', 'agreeDraw', 'claimDraw', 'timeForfeit', 'setOutcome'];
/** A changing method called on something named like a game (`game`, `this.game`, `t.game`, `currentGame`…). */
const CALL = new RegExp(`\\b\\w*[gG]ame\\s*\\??\\.\\s*(${CHANGING.join('|')})\\s*\\(`, 'g');

/**
 * The one writer, and the rules' own Game. The journal's fold (fold.ts) plays the records it is handed on the Game
 * it is handed: the table's own (the only place the game at a table is a Game, not a ReadonlyGame), or one its
 * caller built (a station following the far board's game, src/stations/opponent.ts).
 */
const WRITERS = ['src/game/table.ts', 'src/game/fold.ts'];
const RULES = 'src/rules/';

/** Files that play on a Game they build themselves, and why that is not the game at a table. */
const OWN_GAME: Record<string, string> = {
  'src/pdn/reader.ts': "a record's moves read from PDN text into its own Game",
  'src/pdn/convert.ts': "a record's main line replayed into a new Game",
  'src/engine/book.ts': "the opening book's lines replayed from the corpus, each in its own Game",
  'src/engine-host/match.ts': 'an engine match: the harness plays both engines’ moves in its own Game',
};

/** The changing calls on a game in a source text (comments and strings blanked). */
export function gameWrites(source: string): { line: number; method: string }[] {
  const text = blank(source);
  return [...text.matchAll(CALL)].map((m) => ({ line: text.slice(0, m.index).split('\n').length, method: m[1]! }));
}

const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

describe('the game at the table has one writer', () => {
  it('no file of src/ but the table (and the rules) plays, takes back or ends a game, but the named ones on a Game of their own', () => {
    const found = sourceFiles('src')
      .filter((f) => !f.startsWith(RULES) && !WRITERS.includes(f) && !(f in OWN_GAME))
      .flatMap((f) => gameWrites(read(f)).map((w) => `${f}:${w.line} .${w.method}(`));
    expect(found).toEqual([]);
  });

  it('each exempt file builds the Game it plays on, and still plays on one (else its exemption goes)', () => {
    for (const f of Object.keys(OWN_GAME)) {
      const src = read(f);
      expect(src, f).toMatch(/new Game\(|Game\.(standard|fromBallot)\(/);
      expect(gameWrites(src).length, f).toBeGreaterThan(0);
    }
  });

  it('catches the calls the tracker once made on the table’s game, and not a comment or a string', () => {
    const old = [
      'const previous = this.game.undo().move;',
      'const ply = huff === undefined ? game.play(move) : game.huffAndPlay(huff, move);',
      "t.finish(t.game.resign(r.side), undefined, 'words');",
      'const ply = currentGame?.undo();',
    ].join('\n');
    expect(gameWrites(old).map((w) => w.method)).toEqual(['undo', 'play', 'huffAndPlay', 'resign', 'undo']);
    expect(gameWrites("// game.play(move)\nconst s = 'this.game.undo()';\nthis.writer.play(move); table.undo(); sounds.play(x);")).toEqual(
      [],
    );
  });
});

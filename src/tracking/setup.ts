// Set-up: the board against the position it should show before play starts
// or goes on (a new or loaded game, a reconnect, after a calibration) — a king
// standing on its square recognised without lifting it, the colours checked on
// a polarity-coded board, and otherwise what to put where, in words (with the
// coins an uncalibrated board cannot yet tell from empty squares named). Also
// what the game allows now, for classify (the Situation). Pure: counts, the
// reader's view and the game in, a verdict out.

import { describeFixes, fixesTo, type Fix } from './diagnose.ts';
import { countsOf, outcomes, sameCounts, type Counts, type Outcome } from './boards.ts';
import { colourIssues, colourWords } from './colour.ts';
import { setupReading, type PositionCache } from './evidence.ts';
import type { ColoursRead, Situation } from './classify.ts';
import type { LastCommit } from './state.ts';
import type { BoardView } from '../reading/view.ts';
import type { Position, ReadonlyGame } from '../rules/index.ts';
import { joinWords } from '../words/index.ts';

export interface SetupCheck {
  /** the board with the one-or-two calls the game settles (kings recognised), or null: none to settle */
  soft: Counts | null;
  /** ready: board and position agree; else what to say (fixes: what to put where) */
  verdict: { kind: 'ready' } | { kind: 'not-yet'; fixes: Fix[]; message: string };
}

/** The board (as read, `v` the reader's view) against the position it should show. */
export function checkSetup(board: Counts, v: BoardView, pos: Position): SetupCheck {
  const want = countsOf(pos);
  // One coin or two is the game's call where the reading allows both: a king standing on its
  // square is recognised without lifting it (an off-centre stack reads like one centred coin).
  const soft = v.calibrated ? setupReading(board, want, v) : null;
  const seen = soft ?? board;
  const same = v.calibrated && sameCounts(seen, want);
  // On a polarity-coded board the colours must be right too (a set-up from a FEN, a resumed game,
  // pieces put back after a fumble): each coin of the wrong side is named.
  const colours = same ? colourWords(colourIssues(v, pos), pos) : [];
  if (colours.length) return { soft, verdict: { kind: 'not-yet', fixes: [], message: `Set up the position: ${colours.join(' ')}` } };
  if (same) return { soft, verdict: { kind: 'ready' } };
  const fixes = fixesTo(seen, pos, want);
  // Squares that should hold a coin but read like empty ones to an uncalibrated board (a weak
  // sensor or magnet): seeing them empty for a moment settles it, so ask for exactly that.
  const unclear: number[] = [];
  for (let i = 0; i < 32; i++) if ((v.unclear >>> i) & 1) unclear.push(i + 1);
  const them = unclear.length > 1 ? 'them' : 'it';
  const lift = unclear.length
    ? `${fixes.length ? 'If the coin is there already, lift' : 'Lift'} the ${unclear.length > 1 ? 'coins' : 'coin'} on ${joinWords(unclear.map(String))} for a moment and put ${them} back: the board cannot yet tell ${them} from an empty square.`
    : '';
  const message = fixes.length
    ? `Set up the position: ${describeFixes(fixes)}${lift ? ` ${lift}` : ''}`
    : lift || 'Checking the board: keep the pieces still while it calibrates.';
  return { soft, verdict: { kind: 'not-yet', fixes, message } };
}

/**
 * What the game allows now, for classify: the position's results, the last commit's, huffs, the crown awaited, the retraction
 * rule's piece; and the colours the board reads clearly (coded board: coloursRead), passed through.
 */
export function situationOf(
  game: ReadonlyGame,
  positions: PositionCache,
  play: { last: LastCommit | null; placements: number[] } | null,
  crown: number | null,
  retract: number | null,
  colours: ColoursRead | null = null,
): Situation {
  const snap = positions.of(game);
  const last = play?.last;
  const huffs: { square: number; counts: Counts; outs: Outcome[] }[] = [];
  if (game.options.huffing && !game.outcome) {
    for (const h of game.huffable()) {
      const keep = ~(1 << (h - 1));
      const pos = game.position;
      const huffed: Position = { ...pos, black: pos.black & keep, white: pos.white & keep, kings: pos.kings & keep };
      huffs.push({ square: h, counts: countsOf(huffed), outs: outcomes(huffed, game.options) });
    }
  }
  return {
    counts: snap.counts,
    outs: snap.outs,
    last:
      last && snap.before && snap.beforeCounts
        ? {
            before: snap.before,
            counts: snap.beforeCounts,
            outs: snap.beforeOuts,
            move: game.plies[last.index].move,
            opponentStarted: last.opponentStarted,
          }
        : null,
    crown,
    huffs,
    placements: play?.placements ?? [],
    retract,
    colours,
    options: game.options,
  };
}

// Running a player's command (from the page over WebSocket or from POST
// /api/command) against the game session and, for the simulated board, the
// hand. One handler for both transports; it throws CommandError (or any
// stage's CrownheadError, the session's checks of tags included) with a code
// and a message fit to show the player.

import type { Position } from '../rules/index.ts';
import { GameSession } from '../game/index.ts';
import type { BoardSource } from '../sensors/source.ts';
import { SimBoard } from '../sensors/sim/board.ts';
import type { Command } from '../protocol/v1.ts';
import { CrownheadError } from '../common/errors.ts';

export type CommandErrorCode = 'not-sim' | 'bad-request';

export class CommandError extends CrownheadError<CommandErrorCode> {
  override readonly name = 'CommandError';
}

export function runCommand(session: GameSession, source: BoardSource, command: Command): void {
  switch (command.name) {
    case 'new-game':
      session.newGame({
        fen: command.fen,
        ballot: command.ballot,
        elevenMan: command.elevenMan,
        crossboardOnly: command.crossboardOnly,
        firstPlayer: command.firstPlayer,
        tags: command.tags,
        timeControl: command.timeControl,
        tournament: command.tournament,
        rules: command.rules,
        computer: command.computer,
        remote: command.remote,
      });
      return;
    case 'remote-move':
      session.remote?.relayedHere();
      session.remoteMove({ ply: command.ply, path: command.path, clockMs: command.clockMs });
      return;
    case 'set-tags':
      session.setTags(command.tags);
      return;
    case 'resign':
      session.resign(command.side);
      return;
    case 'offer-draw':
      session.offerDraw(command.side);
      return;
    case 'accept-draw':
      session.acceptDraw(command.side);
      return;
    case 'decline-draw':
      session.declineDraw();
      return;
    case 'claim-draw':
      session.claimDraw();
      return;
    case 'takeback':
      session.takeback(command.side);
      return;
    case 'takeback-answer':
      session.takebackAnswer(command.accept);
      return;
    case 'correct':
      session.correct(command.correction, command.by?.trim() || 'arbiter', command.reason?.trim() ?? '');
      return;
    case 'hint':
      session.hint();
      return;
    case 'analyse':
      session.analyse();
      return;
    case 'cancel':
      session.cancel(command.what);
      return;
    case 'evaluation':
      session.setEvaluation(command.on);
      return;
    case 'clock-start':
      session.clockStart();
      return;
    case 'next-game':
      session.nextGame(command.kind);
      return;
    case 'clock-pause':
      session.clockPause();
      return;
    case 'calibrate':
      session.startCalibration();
      return;
    case 'hand':
    case 'hand-setup':
      return runHand(session, simOf(source), command);
  }
}

/** The simulated board's hand, from the page: a coin put down or lifted, a square set, the position set up. */
function runHand(session: GameSession, sim: SimBoard, command: Extract<Command, { name: 'hand' | 'hand-setup' }>): void {
  if (command.name === 'hand-setup') return placePosition(sim, session.game.position);
  try {
    if (command.action === 'place') sim.place(command.square);
    else if (command.action === 'lift') sim.lift(command.square, command.coins);
    else {
      if (command.coins === undefined) throw new RangeError('"set" needs "coins" (0, 1 or 2)');
      sim.set(command.square, command.coins);
    }
  } catch (e) {
    if (e instanceof RangeError) throw new CommandError('bad-request', e.message);
    throw e;
  }
}

/**
 * The game's position on the simulated board, each coin of its side's colour
 * (a polarity-coded set shows colours): the page's "Set up board", and a
 * resumed game on the simulated board, which stands for a board whose pieces
 * stayed where they were while the program restarted. Squares already right
 * are left alone.
 */
export function placePosition(sim: SimBoard, pos: Position): void {
  for (let s = 1; s <= 32; s++) {
    const bit = 1 << (s - 1);
    const color = pos.black & bit ? 'black' : pos.white & bit ? 'white' : null;
    const coins = color === null ? 0 : pos.kings & bit ? 2 : 1;
    if (sim.coinsAt(s) === coins && sim.colorAt(s) === color) continue;
    if (color !== null && sim.colorAt(s) !== color) sim.set(s, 0);
    sim.set(s, coins, color === null ? undefined : { color });
  }
}

function simOf(source: BoardSource): SimBoard {
  if (!(source instanceof SimBoard))
    throw new CommandError('not-sim', `the hand works only on the simulated board (this server uses the ${source.kind} board)`);
  return source;
}

/** code + message of any error a command threw: a CrownheadError as it is (one shape from every stage); `internal` for bugs (logged by the caller). */
export function commandFailure(e: unknown): { code: string; message: string; internal: boolean } {
  if (e instanceof CrownheadError) return { code: e.code, message: e.message, internal: false };
  return { code: 'internal', message: `the server failed to run the command: ${(e as Error)?.message ?? String(e)}`, internal: true };
}

/** HTTP status for a command error code. */
export function statusFor(code: string): number {
  switch (code) {
    case 'bad-request':
    case 'bad-fen':
    case 'bad-ballot':
    case 'bad-time-control':
    case 'bad-message':
    case 'unknown-command':
      return 400;
    case 'forbidden':
      return 403;
    case 'station-silent':
      return 504;
    case 'internal':
      return 500;
    default:
      return 409; // game-over, not-allowed, nothing-to-undo, not-sim: the request is fine but the game says no
  }
}

// The game stage's refusal: SessionError, with a code the service maps to a
// reply (and an HTTP status) and a message fit to show the player.

import { CrownheadError } from '../common/errors.ts';

export type SessionErrorCode =
  'bad-fen' | 'bad-ballot' | 'bad-time-control' | 'game-over' | 'not-allowed' | 'bad-request' | 'nothing-to-undo';

export class SessionError extends CrownheadError<SessionErrorCode> {
  override readonly name = 'SessionError';
}

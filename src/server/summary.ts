// A board at a glance (protocol BoardSummary): what the arbiter's grid, the
// spectators' page and GET /api/boards show of one board, as a pure function
// of the session's snapshot and the board's identity and number. Summaries
// carry no token and nothing a spectator may not see.

import type { Snapshot } from '../protocol/v1.ts';
import type { BoardState, BoardSummary } from '../protocol/club-v1.ts';

/** Who the board is, beside its game. */
export interface BoardMeta {
  id: string;
  number: number;
  description: string;
  source: string;
}

/** The tags a spectator sees (the game's header; nothing from the service). */
const SHOWN_TAGS = ['Event', 'Site', 'Date', 'Round', 'Board', 'Black', 'White', 'TimeControl'];

/** The state in one word and one sentence. */
function stateOf(s: Snapshot): { state: BoardState; say: string } {
  if (!s.board.connected) return { state: 'disconnected', say: `Board disconnected${s.board.detail ? `: ${s.board.detail}` : ''}` };
  if (s.result !== '*') return { state: 'game-over', say: `Game over: ${s.result}` };
  const st = s.status;
  switch (st.kind) {
    case 'setup':
      return { state: 'setup', say: st.message };
    case 'illegal':
      return { state: 'illegal', say: st.alert.message };
    case 'awaiting-crown':
      return { state: 'awaiting-crown', say: `Crown the man on ${st.square}` };
    case 'moving':
    case 'in-sync':
      if (st.reminder) return { state: 'reminder', say: st.reminder.message };
      return st.kind === 'moving'
        ? { state: 'moving', say: `${cap(s.turn)} is moving` }
        : { state: 'in-sync', say: `${cap(s.turn)} to move` };
  }
}

const cap = (w: string) => w[0]!.toUpperCase() + w.slice(1);

export function boardSummary(meta: BoardMeta, s: Snapshot): BoardSummary {
  const tags: Record<string, string> = {};
  for (const k of SHOWN_TAGS) if (s.tags[k] !== undefined) tags[k] = s.tags[k];
  const lastMove = s.moves.at(-1);
  return {
    ...meta,
    ...stateOf(s),
    gameId: s.gameId,
    tags,
    fen: s.fen,
    pieces: s.pieces,
    turn: s.turn,
    plies: s.moves.length,
    last: lastMove ? { text: lastMove.text, from: lastMove.from, to: lastMove.to } : null,
    result: s.result,
    clock: s.clock,
  };
}

// Requests that wait for an answer, as the page shows them: the engine work a
// page asked for (a hint, the analysis) between the click and the server's
// answer (its button stays disabled meanwhile, so a double press never asks
// twice; once answered, the snapshot says whether the work runs: `hinting`,
// `analysis.running` with its progress), and a takeback between two players,
// asked by one side and answered by the other. Pure helpers for the reducer
// (state.ts) and the renderer (render.ts).

import type { Command, Snapshot } from '../protocol/v1.ts';
import { button, esc } from './html.ts';
import { other, sideName } from './model.ts';

/** Command ids in flight, by the engine work they asked for. */
export type Asked = Partial<Record<'hint' | 'analyse', string>>;

/** A command was sent: remembered if it asks the engine for work. */
export function asked(a: Asked, id: string, command: Command): Asked {
  return command.name === 'hint' || command.name === 'analyse' ? { ...a, [command.name]: id } : a;
}

/** The server answered a command (ok or error): it is no longer waited for. */
export function answered(a: Asked, id: string | undefined): Asked {
  if (id === undefined || (a.hint !== id && a.analyse !== id)) return a;
  const next = { ...a };
  if (next.hint === id) delete next.hint;
  if (next.analyse === id) delete next.analyse;
  return next;
}

/** A hint is asked for or being worked out. */
export function hintBusy(asked: Asked, snap: Snapshot | null): boolean {
  return asked.hint !== undefined || snap?.hinting === true;
}

/** The analysis' progress in words: "Analysing the game: 5 of 12 moves checked". */
export function analysisProgress(snap: Snapshot): string {
  const a = snap.analysis;
  if (!a?.running) return '';
  return a.total ? `Analysing the game: ${a.done ?? 0} of ${a.total} moves checked` : 'Analysing the game…';
}

/**
 * The takeback control of a game in progress. Against the computer: at once.
 * Two players: the side that just moved asks; while it waits, the other side
 * accepts or declines.
 */
export function takebackControls(snap: Snapshot): string {
  if (snap.computer) return button('takeback', 'Take back last move', {}, '');
  const asking = snap.takebackOffer ?? null;
  if (asking === null) return button('takeback', 'Ask to take back', { side: other(snap.turn) }, '');
  const answerer = other(asking);
  return (
    `<p class="offer" id="takeback-offer" role="status">${esc(sideName(asking))} asks to take back the last move.</p>` +
    button('takeback-answer', `${sideName(answerer)}: accept takeback`, { kind: 'accept' }, 'small primary') +
    button('takeback-answer', 'Decline', { kind: 'decline' }, 'small')
  );
}

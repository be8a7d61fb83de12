// The arbiter's corrections on the club page (/arbiter): the form for one
// board's game — replace a move, delete the moves from one on, set the
// result, adjust a clock — with who and why, as HTML (pure), and the form's
// fields turned into the server's `correct` command (checked against the
// protocol, every mistake named). The server journals each correction with
// who and when and shows it in the game's history; nothing is overwritten.

import { Command, type MoveRecord } from '../protocol/v1.ts';
import { type BoardSummary } from '../protocol/club-v1.ts';
import { esc } from './html.ts';
import { CrownheadError } from '../common/errors.ts';
import { err, ok, type Result } from '../common/result.ts';

export type CorrectionKind = 'replace-move' | 'delete-moves' | 'set-result' | 'adjust-clock';

/** The form's fields as the page reads them (strings, as inputs give them). */
export interface CorrectionFields {
  kind: string;
  ply: string;
  move: string;
  result: string;
  side: string;
  time: string;
  by: string;
  reason: string;
}

const KINDS: [CorrectionKind, string][] = [
  ['replace-move', 'Replace a move'],
  ['delete-moves', 'Delete moves from one on'],
  ['set-result', 'Set the result'],
  ['adjust-clock', 'Adjust a clock'],
];

/** A time left typed into the corrections form that is not one. */
export class ClockTimeError extends CrownheadError<'bad-time'> {
  override readonly name = 'ClockTimeError';
  constructor(text: string, why: string) {
    super('bad-time', `"${text.trim().slice(0, 20)}" ${why}: write the time left as minutes:seconds, like 4:30`);
  }
}

/** "5:00" → 300000, "1:02:03" → 3723000, "45" (seconds) → 45000; or the ClockTimeError saying why it is not a time. */
export function parseClockTime(text: string): Result<number, ClockTimeError> {
  const t = text.trim();
  if (!/^\d{1,3}(:\d{1,2}){0,2}$/.test(t)) return err(new ClockTimeError(text, 'is not a time'));
  const parts = t.split(':').map(Number);
  if (parts.slice(1).some((p) => p > 59)) return err(new ClockTimeError(text, 'has more than 59 minutes or seconds'));
  const secs = parts.reduce((acc, p) => acc * 60 + p, 0);
  return ok(secs * 1000);
}

/** The `correct` command the fields ask for, or what is wrong with them (in words). */
export function correctionCommand(f: CorrectionFields): { ok: true; command: Command } | { ok: false; message: string } {
  const ply = Number(f.ply);
  const needsPly = f.kind === 'replace-move' || f.kind === 'delete-moves';
  if (needsPly && !(f.ply.trim() !== '' && Number.isInteger(ply) && ply >= 0)) return { ok: false, message: 'choose the move to correct' };
  let correction: unknown;
  switch (f.kind) {
    case 'replace-move':
      if (!/^\d{1,2}([-x]\d{1,2})+$/.test(f.move.trim()))
        return { ok: false, message: 'write the move that was played in PDN, like 11-15 or 15x24' };
      correction = { kind: 'replace-move', ply, move: f.move.trim() };
      break;
    case 'delete-moves':
      correction = { kind: 'delete-moves', ply };
      break;
    case 'set-result':
      correction = { kind: 'set-result', result: f.result };
      break;
    case 'adjust-clock': {
      const time = parseClockTime(f.time);
      if (!time.ok) return { ok: false, message: time.error.message };
      correction = { kind: 'adjust-clock', side: f.side, ms: time.value };
      break;
    }
    default:
      return { ok: false, message: 'choose what to correct' };
  }
  const command = {
    name: 'correct',
    correction,
    ...(f.by.trim() ? { by: f.by.trim() } : {}),
    ...(f.reason.trim() ? { reason: f.reason.trim() } : {}),
  };
  const parsed = Command.safeParse(command);
  if (!parsed.success)
    return { ok: false, message: `the correction is not valid: ${parsed.error.issues[0]?.message ?? 'unknown problem'}` };
  return { ok: true, command: parsed.data };
}

/** "3. 23-19 (White)" */
const moveLabel = (m: MoveRecord): string => `${m.number}. ${m.text} (${m.side === 'black' ? 'Black' : 'White'})`;

/** The game's moves to choose from, the last one chosen ("Loading…" while `moves` is null). */
export function renderPlyOptions(moves: readonly MoveRecord[] | null): string {
  if (moves === null) return '<option value="">Loading the moves…</option>';
  if (!moves.length) return '<option value="">No moves yet</option>';
  return moves.map((m, i) => `<option value="${m.ply}"${i === moves.length - 1 ? ' selected' : ''}>${esc(moveLabel(m))}</option>`).join('');
}

/**
 * The form for one board: what to correct (each kind's fields shown only for
 * it, by main), the move from the game's record (`moves`: null while it
 * loads), who and why, and the outcome of the last try (`status`).
 */
export function renderCorrectionForm(
  b: BoardSummary,
  moves: readonly MoveRecord[] | null,
  status: { ok: boolean; text: string } | null,
): string {
  const names = `${b.tags.Black?.trim() || 'Black'} – ${b.tags.White?.trim() || 'White'}`;
  const plies = renderPlyOptions(moves);
  const option = (v: string, label: string, sel = false) => `<option value="${esc(v)}"${sel ? ' selected' : ''}>${esc(label)}</option>`;
  return (
    `<form id="correct-form" data-board="${esc(b.id)}" novalidate>` +
    `<h2 id="correct-title">Correct board ${b.number}: ${esc(names)}</h2>` +
    `<p class="club-note">Each correction is journalled with who, when and why, and shown in the game’s history; the original moves stay in the journal.</p>` +
    `<div class="cf-row"><label for="cf-kind">Correction</label><select id="cf-kind" name="kind">${KINDS.map(([v, l]) => option(v, l)).join('')}</select></div>` +
    `<div class="cf-row" data-for="replace-move delete-moves"><label for="cf-ply">Move</label><select id="cf-ply" name="ply">${plies}</select></div>` +
    `<div class="cf-row" data-for="replace-move"><label for="cf-move">Played instead</label><input id="cf-move" name="move" autocomplete="off" inputmode="text" placeholder="e.g. 11-16" maxlength="40"></div>` +
    `<div class="cf-row" data-for="set-result"><label for="cf-result">Result</label><select id="cf-result" name="result">` +
    [
      option('1-0', '1-0 (Black wins)'),
      option('0-1', '0-1 (White wins)'),
      option('1/2-1/2', '½-½ (draw)'),
      option('*', '* (the game goes on)'),
    ].join('') +
    `</select></div>` +
    `<div class="cf-row" data-for="adjust-clock"><label for="cf-side">Clock</label><select id="cf-side" name="side">${option('black', 'Black')}${option('white', 'White')}</select>` +
    `<label for="cf-time">Time left</label><input id="cf-time" name="time" inputmode="numeric" placeholder="4:30" maxlength="9"></div>` +
    `<div class="cf-row"><label for="cf-by">Arbiter</label><input id="cf-by" name="by" autocomplete="name" placeholder="arbiter" maxlength="60"></div>` +
    `<div class="cf-row"><label for="cf-reason">Why</label><input id="cf-reason" name="reason" maxlength="200" placeholder="e.g. players agreed the move was 11-16"></div>` +
    `<div class="cf-actions"><button type="submit" class="btn" id="cf-apply">Apply correction</button><button type="button" class="btn" id="cf-close">Close</button></div>` +
    `<p id="cf-status" class="cf-status${status ? (status.ok ? ' ok' : ' bad') : ''}" role="status">${status ? esc(status.text) : ''}</p>` +
    `</form>`
  );
}

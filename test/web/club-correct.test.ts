// The arbiter's corrections form on the club page (src/web/club-correct.ts)
// without a browser: the fields turned into the server's `correct` command
// (every kind, every mistake named before anything is sent), clock times as
// an arbiter writes them, and the form labelled and filled from the game's
// record. The browser side is in test/web/club-pages.test.ts.

import { describe, expect, it } from 'vitest';
import { unwrap } from '../../src/common/result.ts';
import { MoveRecord } from '../../src/protocol/v1.ts';
import { BoardSummary } from '../../src/protocol/club-v1.ts';
import {
  correctionCommand,
  parseClockTime,
  renderCorrectionForm,
  renderPlyOptions,
  type CorrectionFields,
} from '../../src/web/club-correct.ts';

const blank: CorrectionFields = { kind: '', ply: '', move: '', result: '1-0', side: 'black', time: '', by: '', reason: '' };
const fields = (over: Partial<CorrectionFields>): CorrectionFields => ({ ...blank, ...over });

describe('the correct command from the form', () => {
  it('builds each kind, with who and why when given', () => {
    expect(correctionCommand(fields({ kind: 'replace-move', ply: '2', move: ' 11-16 ', by: ' Ann ', reason: 'agreed' }))).toEqual({
      ok: true,
      command: { name: 'correct', correction: { kind: 'replace-move', ply: 2, move: '11-16' }, by: 'Ann', reason: 'agreed' },
    });
    expect(correctionCommand(fields({ kind: 'delete-moves', ply: '0' }))).toEqual({
      ok: true,
      command: { name: 'correct', correction: { kind: 'delete-moves', ply: 0 } },
    });
    expect(correctionCommand(fields({ kind: 'set-result', result: '1/2-1/2' }))).toEqual({
      ok: true,
      command: { name: 'correct', correction: { kind: 'set-result', result: '1/2-1/2' } },
    });
    expect(correctionCommand(fields({ kind: 'adjust-clock', side: 'white', time: '4:30' }))).toEqual({
      ok: true,
      command: { name: 'correct', correction: { kind: 'adjust-clock', side: 'white', ms: 270_000 } },
    });
  });

  it('names what is wrong, and sends nothing', () => {
    expect(correctionCommand(fields({ kind: 'replace-move', ply: '', move: '11-15' }))).toEqual({
      ok: false,
      message: 'choose the move to correct',
    });
    expect(correctionCommand(fields({ kind: 'replace-move', ply: '3', move: 'e4' }))).toEqual({
      ok: false,
      message: 'write the move that was played in PDN, like 11-15 or 15x24',
    });
    expect(correctionCommand(fields({ kind: 'adjust-clock', time: 'soon' }))).toEqual({
      ok: false,
      message: '"soon" is not a time: write the time left as minutes:seconds, like 4:30',
    });
    expect(correctionCommand(fields({ kind: 'set-result', result: '2-0' }))).toMatchObject({ ok: false });
    expect(correctionCommand(fields({ kind: 'adjust-clock', side: 'red', time: '1:00' }))).toMatchObject({ ok: false });
    expect(correctionCommand(fields({ kind: 'swap-boards' }))).toEqual({ ok: false, message: 'choose what to correct' });
    expect(correctionCommand(fields({ kind: 'set-result', result: '1-0', reason: 'x'.repeat(201) }))).toMatchObject({ ok: false });
  });

  it('reads clock times as an arbiter writes them', () => {
    expect(['5:00', '0:07', '1:02:03', '45', ' 12:5 '].map((t) => unwrap(parseClockTime(t)))).toEqual([
      300_000, 7_000, 3_723_000, 45_000, 725_000,
    ]);
    for (const bad of ['', '5:60', '-1:00', '1.5', '1:2:3:4', 'abc']) {
      const r = parseClockTime(bad);
      expect(r.ok || [r.error.code, r.error.message], bad).toEqual([
        'bad-time',
        expect.stringMatching(/write the time left as minutes:seconds, like 4:30$/),
      ]);
    }
  });
});

describe('the form', () => {
  const board = BoardSummary.parse({
    id: 'SIM-2',
    number: 2,
    description: 'sim',
    source: 'sim',
    state: 'in-sync',
    say: 'Black to move',
    gameId: 'g',
    tags: { Black: 'Ann <Lee>', White: 'Bob' },
    fen: 'B:W21:B1',
    pieces: [],
    turn: 'black',
    plies: 2,
    last: { text: '23-19', from: 23, to: 19 },
    result: '*',
    clock: null,
  });
  const move = (ply: number, text: string, side: 'black' | 'white', from: number, to: number) =>
    MoveRecord.parse({ ply, number: 1, side, text, from, to, path: [to], captures: [], crowned: false, huff: null, clock: null });
  const moves = [move(0, '11-15', 'black', 11, 15), move(1, '23-19', 'white', 23, 19)];

  it('labels every field, names the board and its players, and offers the game’s moves with the last chosen', () => {
    const html = renderCorrectionForm(board, moves, null);
    expect(html).toContain('<h2 id="correct-title">Correct board 2: Ann &lt;Lee&gt; – Bob</h2>');
    for (const id of ['cf-kind', 'cf-ply', 'cf-move', 'cf-result', 'cf-side', 'cf-time', 'cf-by', 'cf-reason'])
      expect(html, id).toContain(`<label for="${id}">`);
    expect(html).toContain('<option value="0">1. 11-15 (Black)</option><option value="1" selected>1. 23-19 (White)</option>');
    expect(html).toContain('<p id="cf-status" class="cf-status" role="status"></p>');
    expect(renderCorrectionForm(board, null, { ok: false, text: 'Refused: no move 9' })).toContain(
      '<p id="cf-status" class="cf-status bad" role="status">Refused: no move 9</p>',
    );
    expect(renderPlyOptions(null)).toBe('<option value="">Loading the moves…</option>');
    expect(renderPlyOptions([])).toBe('<option value="">No moves yet</option>');
  });
});

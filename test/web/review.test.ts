// The page's new views, headless: review mode (stepping through the current
// game and an archived one, back to live), the out-of-turn piece in its own
// colour, quiet reminders, the storage banner, the colour check of a set-up
// position, takeback and new-game confirmations, the archive list.

import { describe, expect, it } from 'vitest';
import { piecesAfter } from '../../src/web/model.ts';
import {
  renderArchive,
  renderBanner,
  renderBoard,
  renderGameControls,
  renderMoves,
  renderReview,
  renderStatus,
} from '../../src/web/render.ts';
import { initialState, reduce, reviewView, sortedArchive, statusHeadline, type ViewState } from '../../src/web/state.ts';
import { gameRecord } from '../../src/server/archive.ts';
import type { ArchiveEntry } from '../../src/protocol/v1.ts';
import { TableServer } from './fixture.ts';

const NOW = 50_000;
const at = (raw: string, s: ViewState = initialState()) => reduce(s, { type: 'message', raw, now: NOW });
const feed = (s: ViewState, raws: string[]) => raws.reduce((st, r) => at(r, st), s);

async function played(): Promise<{ t: TableServer; s: ViewState }> {
  const t = await TableServer.open();
  t.setUp();
  t.move(11, 15);
  t.move(24, 19);
  t.move(15, 24, [19]);
  t.move(28, 19, [24]);
  t.take();
  return { t, s: at(t.hello()) };
}

const pieceAt = (svg: string, sq: number) => new RegExp(`data-square="${sq}"`).test(svg);

describe('review mode', () => {
  it('steps back and forth through the current game and returns to live', async () => {
    const { t, s: live } = await played();
    expect(live.snap!.moves.map((m) => m.text)).toEqual(['11-15', '24-19', '15x24', '28x19']);
    expect(reviewView(live)).toBeNull();
    let s = reduce(live, { type: 'review', to: 'prev' });
    expect(s.review).toEqual({ ply: 3, record: null });
    let v = reviewView(s)!;
    expect(v.moveLabel).toBe('2. 15x24');
    // After 15x24: a black man on 24, 19 and 28 as before the recapture.
    expect(v.pieces.find((p) => p.square === 24)).toEqual({ square: 24, color: 'black', king: false });
    expect(v.pieces.some((p) => p.square === 19)).toBe(false);
    const svg = renderBoard(s, { now: NOW });
    expect(svg).toContain('board-svg reviewing');
    expect(pieceAt(svg, 24)).toBe(true);
    expect(svg).toContain('data-captured="19"');
    expect(svg).not.toContain('data-act="square"');
    expect(renderReview(s)).toContain('Reviewing: move 2. 15x24 (3/4)');
    expect(renderReview(s)).toContain('data-to="live"');
    // What each side has in that position (Black has taken one man).
    expect(renderReview(s)).toContain('Black 12 · White 11');
    expect(renderMoves(s)).toMatch(/class="mv current" data-act="review" data-to="3"/);
    s = reduce(s, { type: 'review', to: 'first' });
    v = reviewView(s)!;
    expect(v.ply).toBe(0);
    expect(v.pieces).toEqual(live.snap!.start);
    expect(renderReview(s)).toContain('the start position (0/4)');
    s = reduce(s, { type: 'review', to: 2 });
    expect(reviewView(s)!.moveLabel).toBe('1... 24-19');
    // The live game goes on underneath: a move arrives while reviewing, the review stays where it is.
    t.move(9, 14);
    s = feed(s, t.take());
    expect(s.snap!.moves).toHaveLength(5);
    expect(s.review).toEqual({ ply: 2, record: null });
    // Stepping on to the last move is being live again (the same position, and play goes on from it).
    for (let i = 0; i < 2; i++) s = reduce(s, { type: 'review', to: 'next' });
    expect(s.review).toEqual({ ply: 4, record: null });
    s = reduce(s, { type: 'review', to: 'next' });
    expect(s.review).toBeNull();
    s = reduce(reduce(s, { type: 'review', to: 1 }), { type: 'review', to: 'live' });
    expect(s.review).toBeNull();
    // A new game ends a review of the old one.
    s = reduce(s, { type: 'review', to: 1 });
    t.session.newGame();
    s = feed(s, t.take());
    expect(s.review).toBeNull();
  });

  it('has nothing to step through before the first move (the bar keeps its place, its steps off)', async () => {
    const t = await TableServer.open();
    t.setUp();
    const s = feed(at(t.hello()), t.take());
    expect(reduce(s, { type: 'review', to: 'prev' })).toBe(s);
    expect(renderReview(s)).toContain('class="review-bar live"');
    expect(renderReview(s)).toMatch(/id="rv-prev"[^>]*disabled/);
    expect(renderReview(s)).toMatch(/id="rv-first"[^>]*disabled/);
  });

  it('replays an archived game from its PDN record, and closes it', async () => {
    const { t, s: live } = await played();
    const rec = gameRecord('20261123-120000-001', t.session.pdn());
    let s = reduce(live, { type: 'open-record', record: rec });
    expect(s.review).toMatchObject({ ply: 4 });
    s = reduce(s, { type: 'review', to: 'prev' });
    expect(reviewView(s)).toMatchObject({ archived: true, ply: 3, total: 4 });
    expect(renderReview(s)).toContain('Archived game: ');
    expect(renderReview(s)).toContain('href="/api/games/20261123-120000-001.pdn"');
    // The move list is the archived game's, its shown move marked, its moves clickable.
    t.move(9, 14);
    s = feed(s, t.take());
    const list = renderMoves(s);
    expect(list).toContain('Moves of the archived game');
    expect(list).not.toContain('9-14');
    expect(list).toMatch(/class="mv current" data-act="review" data-to="3"[^>]*>15x24</);
    expect(list).toContain('data-result="*"');
    // The end of an archived game does not drop back to live; closing does.
    s = reduce(s, { type: 'review', to: 'last' });
    expect(s.review).toMatchObject({ ply: 4 });
    s = reduce(s, { type: 'review', to: 'live' });
    expect(s.review).toBeNull();
  });

  it('piecesAfter applies huffs, captures and crowning', () => {
    const start = [
      { square: 26, color: 'black' as const, king: false },
      { square: 32, color: 'white' as const, king: false },
      { square: 5, color: 'white' as const, king: false },
    ];
    const moves = [
      {
        ply: 0,
        number: 1,
        side: 'black' as const,
        text: '26-30',
        from: 26,
        to: 30,
        path: [30],
        captures: [],
        crowned: true,
        huff: null,
        clock: null,
      },
      {
        ply: 1,
        number: 1,
        side: 'white' as const,
        text: '32-27',
        from: 32,
        to: 27,
        path: [27],
        captures: [],
        crowned: false,
        huff: 5,
        clock: null,
      },
    ];
    expect(piecesAfter(start, moves, 1)).toContainEqual({ square: 30, color: 'black', king: true });
    expect(piecesAfter(start, moves, 2).map((p) => p.square)).toEqual([27, 30]);
  });
});

describe('what the board and the status say', () => {
  it('draws a piece moved out of turn in its own colour', async () => {
    const t = await TableServer.open();
    t.setUp();
    let s = feed(at(t.hello()), t.take());
    // Black to move; a white man goes from 24 to 20.
    t.lift(24);
    t.place(20);
    t.wait(600);
    s = feed(s, t.take());
    expect(s.snap!.turn).toBe('black');
    const svg = renderBoard(s, { now: NOW });
    const g = /<g class="piece differs" data-square="20"[^>]*>(.*?)<\/g><\/g>/.exec(svg);
    expect(g).not.toBeNull();
    expect(g![1]).toContain('coin coin-w extra');
  });

  it('asks to check colours before the first move of a set-up position', async () => {
    const t = await TableServer.open();
    t.session.newGame({ fen: 'B:W18,24,K10:B12,16' });
    t.setUp();
    const s = feed(at(t.hello()), t.take());
    const html = renderStatus(s);
    expect(html).toContain('The sensors cannot see colours');
    expect(html).toContain('<li>Black men on 12 and 16</li>');
    expect(html).toContain('<li>White men on 18 and 24, a white king on 10</li>');
    expect(statusHeadline(s).title).toBe('Black to move');
  });

  it('shows a quiet reminder without tone, beside the status, and drops it when play goes on', async () => {
    const { t, s: s0 } = await played();
    const raw = JSON.stringify({
      v: 1,
      type: 'event',
      event: { type: 'notice', level: 'reminder', squares: [19], say: 'Take the captured man off 19.' },
      state: t.session.snapshot(),
    });
    let s = at(raw, s0);
    expect(s.announcement).toMatchObject({ text: 'Take the captured man off 19.', urgent: false, tone: null, quiet: true });
    expect(renderStatus(s)).toContain('<p class="notice" role="note">Take the captured man off 19.</p>');
    expect(renderBoard(s, { now: NOW })).toMatch(/class="mark [^"]*remind" data-mark="19"/);
    t.move(9, 14);
    s = feed(s, t.take());
    expect(s.notice).toBeNull();
  });

  it('keeps a reminder while the board status carries it, and drops it once the board is put right', async () => {
    const { t, s: s0 } = await played();
    let s = at(
      JSON.stringify({
        v: 1,
        type: 'event',
        event: { type: 'notice', level: 'reminder', squares: [15], say: 'The coin on 15 is upside down: turn it over.' },
        state: t.session.snapshot(),
      }),
      s0,
    );
    const counts = (status: unknown) => JSON.stringify({ v: 1, type: 'counts', counts: new Array(32).fill(0), differences: [], status });
    s = at(
      counts({
        kind: 'in-sync',
        reminder: { category: 'upside-down', message: 'The coin on 15 is upside down: turn it over.', squares: [15], t: 1 },
      }),
      s,
    );
    expect(s.notice?.squares).toEqual([15]);
    s = at(counts({ kind: 'in-sync' }), s);
    expect(s.notice).toBeNull();
  });

  it('shows storage trouble from the first hello and on storage events', async () => {
    const { t } = await played();
    let s = at(t.hello({ storage: { ok: false, message: 'cannot write in ./games: the disk is full.' } }));
    expect(renderBanner(s, NOW)).toContain('Games are not being saved.</strong> cannot write in ./games: the disk is full.');
    s = at(
      JSON.stringify({
        v: 1,
        type: 'event',
        event: {
          type: 'storage',
          ok: true,
          say: 'games are saved in ./games again',
          storage: { ok: true, message: 'games are saved in ./games again' },
        },
        state: t.session.snapshot(),
      }),
      s,
    );
    expect(s.storage).toEqual({ ok: true, message: 'games are saved in ./games again' });
    expect(renderBanner(s, NOW)).not.toContain('not being saved');
    // A damaged record is not "not being saved": it says what was lost and what the user can do.
    const damaged = {
      ok: false,
      problem: 'damaged-journal',
      message: 'line 7 of the journal was damaged; 12 moves resumed, the original kept as g.journal.damaged-1.',
      choice: 'Play on, or start a new game.',
    };
    s = at(
      JSON.stringify({
        v: 1,
        type: 'event',
        event: { type: 'storage', ok: false, problem: 'damaged-journal', say: damaged.message, storage: damaged },
        state: t.session.snapshot(),
      }),
      s,
    );
    expect(renderBanner(s, NOW)).toContain(
      'The last game’s record was damaged.</strong> line 7 of the journal was damaged; 12 moves resumed, the original kept as g.journal.damaged-1. Play on, or start a new game.',
    );
  });
});

describe('the move list', () => {
  it("keeps its columns when White moves first: an empty Black cell, then White's move, fixed widths", async () => {
    const t = await TableServer.open();
    t.session.newGame({ fen: 'W:W21,22,23,24,25:B1,2,3,4,5' });
    t.setUp();
    t.move(22, 18);
    t.move(5, 9);
    const s = feed(at(t.hello()), t.take());
    const html = renderMoves(s);
    expect(html).toContain('<colgroup><col class="c-num"><col class="c-mv"><col class="c-mv"></colgroup>');
    expect(html).toMatch(
      /<tr><th scope="row">1\.<\/th><td class="mv empty">…<\/td><td class="mv" data-act="review" data-to="1"[^>]*>22-18<\/td><\/tr><tr><th scope="row">2\.<\/th><td class="mv current" data-act="review" data-to="2"[^>]*>5-9<\/td><td class="mv empty">…<\/td><\/tr>/,
    );
  });
});

describe('confirmations and the archive', () => {
  it('hides the takeback after a draw by agreement; after a last-move win it asks first', async () => {
    const { t, s: s0 } = await played();
    expect(renderGameControls(s0)).toContain('data-act="takeback"');
    t.session.offerDraw('white');
    t.session.acceptDraw('black');
    const s = feed(s0, t.take());
    expect(renderGameControls(s)).not.toContain('data-act="takeback"');
    const t2 = await TableServer.open();
    t2.session.newGame({ fen: 'B:W19:B15' });
    t2.setUp();
    t2.move(15, 24, [19]);
    let s2 = feed(at(t2.hello()), t2.take());
    expect(s2.snap!.outcome).toEqual({ winner: 'black', reason: 'no-moves' });
    expect(renderGameControls(s2)).toContain('Take back last move (reopens the game)');
    s2 = reduce(s2, { type: 'arm', key: 'takeback', now: Date.now() });
    expect(renderGameControls(s2)).toContain('Confirm: reopen the finished game?');
  });

  it('a refused new game is shown beside the form, an accepted one closes it', async () => {
    const { s: s0 } = await played();
    let s = reduce(s0, { type: 'command-sent', id: 'c7', command: { name: 'new-game', fen: 'X:nonsense' }, now: NOW });
    s = at(
      JSON.stringify({ v: 1, type: 'error', id: 'c7', code: 'bad-fen', message: 'FEN "X:nonsense": the side to move must be B or W' }),
      s,
    );
    expect(s.newGame).toEqual({ pending: null, error: 'FEN "X:nonsense": the side to move must be B or W', started: 0 });
    expect(s.error).toBeNull();
    s = reduce(s, { type: 'command-sent', id: 'c8', command: { name: 'new-game' }, now: NOW });
    expect(s.newGame.error).toBeNull();
    s = at(JSON.stringify({ v: 1, type: 'ok', id: 'c8' }), s);
    expect(s.newGame).toEqual({ pending: null, error: null, started: 1 });
  });

  it('lists saved games newest first, sorts by a column, and offers delete only with control', async () => {
    const { t, s: s0 } = await played();
    const e = (id: string, modified: number, black: string, plies: number, current = false): ArchiveEntry => ({
      id,
      event: 'Club',
      black,
      white: 'W',
      date: '2026.11.2' + (modified % 10),
      result: '*',
      plies,
      modified,
      current,
    });
    let s = reduce(s0, { type: 'archive', open: true });
    expect(renderArchive(s, NOW)).toContain('Loading');
    s = reduce(s, { type: 'archive-list', entries: [e('a', 1, 'Cy', 40), e('c', 3, 'Ann', 12, true), e('b', 2, 'Bo', 70)] });
    expect(sortedArchive(s.archive).map((g) => g.id)).toEqual(['c', 'b', 'a']);
    s = reduce(s, { type: 'archive-sort', by: 'players' });
    expect(sortedArchive(s.archive).map((g) => g.black)).toEqual(['Ann', 'Bo', 'Cy']);
    s = reduce(s, { type: 'archive-sort', by: 'players' });
    expect(sortedArchive(s.archive).map((g) => g.black)).toEqual(['Cy', 'Bo', 'Ann']);
    s = reduce(s, { type: 'archive-sort', by: 'length' });
    expect(sortedArchive(s.archive).map((g) => g.plies)).toEqual([70, 40, 12]);
    const html = renderArchive(s, NOW);
    expect(html).toContain('id="del-a"');
    expect(html).not.toContain('id="del-c"');
    expect(html).toContain('href="/api/games/b.pdn"');
    expect(html).toContain('href="/api/archive.pdn"');
    const ro = reduce(at(t.hello({ readOnly: true })), { type: 'archive-list', entries: [e('a', 1, 'Cy', 40)] });
    expect(renderArchive(reduce(ro, { type: 'archive', open: true }), NOW)).not.toContain('data-act="archive-delete"');
  });
});

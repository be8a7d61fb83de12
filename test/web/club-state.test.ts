// The club pages without a browser: the spectators' socket messages folded
// into the state (club-state.ts) and the grid, cards, attention list and
// connection drawn from it (club-render.ts). Every board here is parsed by
// the protocol's BoardSummary schema, so a fixture the server could not send
// fails the test. The browser side is test/web/club-pages.test.ts.

import { describe, expect, it } from 'vitest';
import { type ClockState } from '../../src/protocol/v1.ts';
import { BoardSummary } from '../../src/protocol/club-v1.ts';
import {
  boardGroups,
  clockNow,
  initialClubState,
  movesPlayed,
  needsAttention,
  orderedBoards,
  reduceClub,
  stateLabel,
  timeCalled,
  type ClubState,
} from '../../src/web/club-state.ts';
import {
  boardHref,
  renderAlerts,
  renderCard,
  renderClubConnection,
  renderClubRegions,
  renderGrid,
  renderProblem,
} from '../../src/web/club-render.ts';
import { squareXY } from '../../src/web/model.ts';

const START_FEN = 'B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12';
const startPieces = () => [
  ...Array.from({ length: 12 }, (_, i) => ({ square: i + 1, color: 'black' as const, king: false })),
  ...Array.from({ length: 12 }, (_, i) => ({ square: i + 21, color: 'white' as const, king: false })),
];

function board(number: number, over: Partial<BoardSummary> = {}): BoardSummary {
  return BoardSummary.parse({
    id: `SIM-${number}`,
    number,
    description: `simulated board SIM-${number}`,
    source: 'sim',
    state: 'in-sync',
    say: 'Black to move',
    gameId: `2026-11-26-00${number}`,
    tags: { Event: 'Club night', Round: '2', Board: String(number), Black: `Black ${number}`, White: `White ${number}` },
    fen: START_FEN,
    pieces: startPieces(),
    turn: 'black',
    plies: 0,
    last: null,
    result: '*',
    clock: null,
    ...over,
  });
}

const clock = (over: Partial<ClockState> = {}): ClockState => ({
  control: '5m',
  black: 300_000,
  white: 300_000,
  running: null,
  flagged: null,
  started: false,
  ...over,
});

const NOW = 1_000_000;
const msg = (s: ClubState, m: object, now = NOW): ClubState => reduceClub(s, { type: 'message', raw: JSON.stringify({ v: 1, ...m }), now });
const withBoards = (boards: BoardSummary[], s = initialClubState('watch')): ClubState =>
  msg(reduceClub(s, { type: 'socket', state: 'open', now: NOW }), { type: 'boards', boards });

describe('the fold of the spectators socket', () => {
  it('keeps every board by id, in number order, replaces one board on `board`, and all on `boards`', () => {
    let s = withBoards([board(3), board(1), board(4), board(2)]);
    expect(s.loaded).toBe(true);
    expect(orderedBoards(s).map((e) => e.board.number)).toEqual([1, 2, 3, 4]);
    const moved = board(3, {
      state: 'in-sync',
      say: 'White to move',
      turn: 'white',
      plies: 1,
      last: { text: '11-15', from: 11, to: 15 },
      pieces: startPieces().map((p) => (p.square === 11 ? { ...p, square: 15 } : p)),
    });
    s = msg(s, { type: 'board', board: moved }, NOW + 500);
    expect(s.boards['SIM-3'].board.plies).toBe(1);
    expect(s.boards['SIM-3'].at).toBe(NOW + 500);
    expect(s.boards['SIM-1'].at).toBe(NOW);
    // A fresh list (after a reconnect): boards no longer in the room are gone.
    s = msg(s, { type: 'boards', boards: [board(1), board(2)] });
    expect(Object.keys(s.boards).sort()).toEqual(['SIM-1', 'SIM-2']);
  });

  it('announces a board turning illegal or disconnected once, politely, and not every move', () => {
    // Already illegal when the page loads: not a change, not announced.
    let s = withBoards([board(1), board(2, { state: 'illegal', say: 'Put the man back on 9' })]);
    expect(s.announcement).toBeNull();
    s = msg(s, { type: 'board', board: board(1, { state: 'moving', say: 'Black is moving' }) });
    s = msg(s, { type: 'board', board: board(1, { state: 'in-sync', say: 'White to move', plies: 1 }) });
    expect(s.announcement).toBeNull();
    s = msg(s, { type: 'board', board: board(1, { state: 'illegal', say: 'White moved out of turn: put the man back on 22' }) });
    expect(s.announcement).toEqual({ n: 1, text: 'Board 1: White moved out of turn: put the man back on 22' });
    // Still illegal (a count changed): nothing new to say.
    s = msg(s, { type: 'board', board: board(1, { state: 'illegal', say: 'White moved out of turn: put the man back on 22' }) });
    expect(s.announcement!.n).toBe(1);
    s = msg(s, { type: 'board', board: board(4, { state: 'disconnected', say: 'Board disconnected: the USB cable' }) });
    expect(s.announcement).toEqual({ n: 2, text: 'Board 4: Board disconnected: the USB cable' });
    // Back in order: quiet.
    s = msg(s, { type: 'board', board: board(1) });
    expect(s.announcement!.n).toBe(2);
    // A fresh list naming a newly illegal board after a reconnect is a change.
    s = msg(s, { type: 'boards', boards: [board(1, { state: 'illegal', say: 'Take the captured man off 18' }), board(4)] });
    expect(s.announcement).toEqual({ n: 3, text: 'Board 1: Take the captured man off 18' });
  });

  it('stops at forbidden, keeps the boards through bad messages, and says what came', () => {
    let s = withBoards([board(1)]);
    s = reduceClub(s, { type: 'message', raw: '{not json', now: NOW });
    expect(s.problem).toBe('the server sent something that is not JSON');
    expect(Object.keys(s.boards)).toEqual(['SIM-1']);
    s = msg(s, { type: 'board', board: { id: 'SIM-9' } });
    expect(s.problem).toBe('the server sent a message this page does not understand (type "board")');
    expect(Object.keys(s.boards)).toEqual(['SIM-1']);
    s = msg(s, { type: 'error', code: 'rate-limited', message: 'too many messages' });
    expect(s.problem).toBe('too many messages (rate-limited)');
    expect(renderProblem(s, { mode: 'watch', token: null })).toBe(
      '<p class="club-problem" role="status">Too many messages (rate-limited).</p>',
    );
    expect(msg(s, { type: 'pong' })).toBe(s);
    s = msg(s, { type: 'error', code: 'forbidden', message: 'this server needs a token to watch the game' });
    expect(s.connection).toBe('forbidden');
    // The socket closing after the refusal does not turn into "reconnecting".
    expect(reduceClub(s, { type: 'socket', state: 'closed', now: NOW, retryInMs: 500 }).connection).toBe('forbidden');
  });

  it('is reconnecting, with the time of the next try, when the socket drops', () => {
    let s = withBoards([board(1)]);
    s = reduceClub(s, { type: 'socket', state: 'closed', now: NOW, retryInMs: 2_000 });
    expect(s).toMatchObject({ connection: 'reconnecting', retryAt: NOW + 2_000 });
    expect(renderClubConnection(s, NOW + 600)).toContain('Reconnecting in 2 s');
    expect(renderClubConnection(s, NOW + 2_500)).toContain('Reconnecting…');
    s = reduceClub(s, { type: 'socket', state: 'open', now: NOW + 2_100 });
    expect(s).toMatchObject({ connection: 'open', retryAt: null });
    expect(renderClubConnection(s, NOW)).toContain('data-connection="open"');
  });
});

describe('clocks, moves and the time call', () => {
  it('ticks the running side from when the board was heard, only while live and the game goes on', () => {
    const s = withBoards([board(1, { clock: clock({ running: 'black', started: true, black: 61_000 }) })]);
    const e = s.boards['SIM-1'];
    expect(clockNow(e, NOW + 1_500, true)).toMatchObject({ black: 59_500, white: 300_000 });
    expect(clockNow(e, NOW + 1_500, false)!.black).toBe(61_000);
    const over = { ...e, board: { ...e.board, result: '1-0' as const } };
    expect(clockNow(over, NOW + 1_500, true)!.black).toBe(61_000);
    expect(clockNow(e, NOW + 90_000, true)!.black).toBe(0);
    const html = renderCard(e, NOW + 1_500, { mode: 'watch', token: null, live: true });
    // 59.5 s left reads 1:00 (a clock shows the second it is in, rounding up).
    expect(html).toContain('<span class="cc-clock running" data-clock="black">1:00</span>');
    expect(html).toContain('<span class="cc-clock" data-clock="white">5:00</span>');
  });

  it('calls time per move when the limit runs out between messages, and names a fallen flag', () => {
    const perMove = { side: 'white' as const, limit: 300_000, forced: false, timeCalled: null, graceLeft: 60_000 };
    const s = withBoards([
      board(2, {
        turn: 'white',
        plies: 7,
        clock: clock({ control: '5m/move,1m/grace', running: 'white', started: true, white: 2_000, perMove }),
      }),
      board(3, { clock: clock({ flagged: 'black', started: true, black: 0 }) }),
      board(4, { state: 'illegal', say: 'Put the man back on 9' }),
      board(5, { state: 'disconnected', say: 'Board disconnected' }),
      board(1),
    ]);
    expect(timeCalled(s.boards['SIM-2'], NOW + 1_000, true)).toBeNull();
    expect(timeCalled(s.boards['SIM-2'], NOW + 5_000, true)).toEqual({ side: 'white', graceLeft: 57_000 });
    const called = renderCard(s.boards['SIM-2'], NOW + 5_000, { mode: 'watch', token: null, live: true });
    expect(called).toContain('>Time 0:57</span>');
    // The card says it at a glance, in the warning colour; before the limit it is just in sync.
    expect(called).toMatch(/^<section class="club-card tone-warn"/);
    expect(called).toContain('Time, White!</span>');
    expect(renderCard(s.boards['SIM-2'], NOW, { mode: 'watch', token: null, live: true })).toContain('In sync</span>');
    expect(renderCard(s.boards['SIM-3'], NOW, { mode: 'watch', token: null, live: true })).toContain('Black out of time</span>');
    const list = needsAttention(s, NOW + 5_000);
    expect(list.map((a) => [a.entry.board.number, a.kind, a.text])).toEqual([
      [2, 'time', 'Time called on White'],
      [3, 'time', 'Black ran out of time'],
      [4, 'illegal', 'Put the man back on 9'],
      [5, 'disconnected', 'Board disconnected'],
    ]);
    // A disconnected board's reason, without saying "Board disconnected" twice.
    const unplugged = withBoards([board(6, { state: 'disconnected', say: 'Board disconnected: the USB cable was pulled' })]);
    expect(needsAttention(unplugged, NOW)[0]!.text).toBe('The USB cable was pulled');
    const html = renderCard(unplugged.boards['SIM-6'], NOW, { mode: 'watch', token: null, live: true });
    expect(html).toContain('Board disconnected</span>');
    expect(html).toContain('<p class="cc-say">The USB cable was pulled</p>');
    // Before the limit runs out board 2 is not on the list.
    expect(needsAttention(s, NOW).map((a) => a.entry.board.number)).toEqual([3, 4, 5]);
  });

  it('counts moves, not plies', () => {
    expect([0, 1, 2, 3, 40, 41].map(movesPlayed)).toEqual([0, 1, 1, 2, 20, 21]);
    const s = withBoards([board(1, { plies: 41, turn: 'white', last: { text: '18x27', from: 18, to: 27 } })]);
    expect(renderCard(s.boards['SIM-1'], NOW, { mode: 'watch', token: null, live: true })).toContain(
      '<p class="cc-moves" data-moves="21">21 moves · last <span class="cc-last">18x27</span></p>',
    );
  });
});

describe('the grid', () => {
  it('orders boards by number under their Event/Round heading', () => {
    const other = { Event: 'Juniors', Round: '1', Black: 'A', White: 'B' };
    const s = withBoards([board(2), board(1), board(5, { tags: other }), board(3, { tags: {} })]);
    expect(boardGroups(s).map((g) => [g.title, g.boards.map((e) => e.board.number)])).toEqual([
      ['Club night, round 2', [1, 2]],
      ['', [3]],
      ['Juniors, round 1', [5]],
    ]);
    const html = renderGrid(s, NOW, { mode: 'watch', token: null });
    expect(html.indexOf('Club night, round 2')).toBeLessThan(html.indexOf('Juniors, round 1'));
    expect([...html.matchAll(/<h3 id="board-SIM-(\d)-title">/g)].map((m) => Number(m[1]))).toEqual([1, 2, 3, 5]);
    expect(renderGrid(initialClubState('watch'), NOW, { mode: 'watch', token: null })).toContain('Loading the boards');
    expect(renderGrid(withBoards([]), NOW, { mode: 'watch', token: null })).toContain('No boards in this room yet');
  });

  it('draws each card as a labelled region: players, state in colour and words, the last move lit on the small board', () => {
    const s = withBoards([
      board(3, {
        state: 'illegal',
        say: 'White moved out of turn: put the man back on 22',
        turn: 'black',
        plies: 2,
        last: { text: '22-18', from: 22, to: 18 },
        pieces: [
          { square: 1, color: 'black', king: true },
          { square: 18, color: 'white', king: false },
        ],
      }),
    ]);
    const html = renderCard(s.boards['SIM-3'], NOW, { mode: 'watch', token: null, live: true });
    expect(html).toMatch(
      /^<section class="club-card tone-bad" id="board-SIM-3" data-board="SIM-3" data-state="illegal" aria-labelledby="board-SIM-3-title" tabindex="-1">/,
    );
    expect(html).toContain('<h3 id="board-SIM-3-title">Board 3</h3>');
    expect(html).toContain('ILLEGAL</span>');
    expect(html).toContain('<p class="cc-say">White moved out of turn: put the man back on 22</p>');
    // Black to move: said in words to a screen reader, a marker to the eye.
    expect(html).toContain(
      '<div class="cc-player to-move" data-side="black"><span class="pc-dot pc-b" aria-hidden="true"></span><span class="cc-name">Black 3<span class="sr-only"> (black)</span><span class="cc-turn"><span aria-hidden="true"> ◂</span><span class="sr-only">, to move</span></span></span>',
    );
    expect(html).toContain('<span class="cc-name">White 3<span class="sr-only"> (white)</span></span>');
    expect(html).toContain('aria-label="Position: Black 1 (1 king), White 1, last move 22-18"');
    const at = (sq: number) => squareXY(sq, false);
    expect(html).toContain(`<rect class="mark last-from" x="${at(22).x}" y="${at(22).y}" width="1" height="1"/>`);
    expect(html).toContain(`<rect class="mark last-to" x="${at(18).x}" y="${at(18).y}" width="1" height="1"/>`);
    expect(html.match(/class="pc pc-/g)).toHaveLength(2);
    expect(html.match(/class="crown crown-b"/g)).toHaveLength(1);
  });

  it('has words for every state, and the result once the game is over', () => {
    const words = (['setup', 'in-sync', 'moving', 'awaiting-crown', 'illegal', 'reminder', 'disconnected', 'game-over'] as const).map(
      (st) => {
        const b = board(1, { state: st, ...(st === 'game-over' ? { result: '0-1' as const } : {}) });
        return stateLabel(b).label;
      },
    );
    expect(words).toEqual([
      'Setting up',
      'In sync',
      'Moving',
      'Awaiting a crown',
      'ILLEGAL',
      'Reminder',
      'Board disconnected',
      'Game over: 0-1',
    ]);
    const s = withBoards([board(1, { state: 'game-over', say: 'Game over: 0-1', result: '0-1', plies: 30 })]);
    const html = renderCard(s.boards['SIM-1'], NOW, { mode: 'watch', token: null, live: true });
    expect(html).toContain('<p class="cc-result" data-result="0-1">0-1 (White wins)</p>');
    expect(html).toContain('tone-done');
    expect(html).not.toContain('cc-say'); // "Game over: 0-1" is the label already
  });
});

describe('watch and arbiter', () => {
  const TOKEN = 'c0ntr0l-T0KEN_x';
  const boards = [
    board(1),
    board(2, { state: 'illegal', say: 'Put the man back on 9' }),
    board(3, { state: 'disconnected', say: 'Board disconnected' }),
  ];

  it('the spectators page links each board for review, carrying on only the token its own address gave', () => {
    const s = withBoards(boards);
    const none = Object.values(renderClubRegions(s, NOW, { mode: 'watch', token: null })).join('');
    expect(none).not.toContain('token');
    expect(none).toContain('href="/boards/SIM-1/"');
    // A spectator on another device opened /watch?token=WATCH (the server swaps a control token for the watch token there).
    const WATCH = 'w4tch-T0KEN_y';
    const regions = renderClubRegions(s, NOW, { mode: 'watch', token: WATCH });
    const all = Object.values(regions).join('');
    expect(all).toContain(`href="/boards/SIM-1/?token=${WATCH}"`);
    expect(all).toContain('Follow board 1<span class="sr-only">: Black 1 – White 1</span> with review');
    expect(regions['club-alerts']).toBe('');
    expect(all).not.toContain('<button');
  });

  it('the arbiter sees what needs attention first, and opens each board with its controls', () => {
    const s = withBoards(boards, initialClubState('arbiter'));
    const opts = { mode: 'arbiter' as const, token: TOKEN };
    expect(boardHref('SIM-2', opts)).toBe(`/boards/SIM-2/?token=${TOKEN}`);
    expect(boardHref('A B/1', { mode: 'arbiter', token: 'x&y' })).toBe('/boards/A%20B%2F1/?token=x%26y');
    const alerts = renderAlerts(s, NOW, opts);
    expect(alerts).toContain('<h2 id="alerts-title">2 boards need you</h2>');
    expect([...alerts.matchAll(/data-alert="(\w+)" data-board="([\w-]+)"/g)].map((m) => `${m[2]} ${m[1]}`)).toEqual([
      'SIM-2 illegal',
      'SIM-3 disconnected',
    ]);
    expect(alerts).toContain(`href="/boards/SIM-2/?token=${TOKEN}"`);
    const card = renderCard(s.boards['SIM-1'], NOW, { ...opts, live: true });
    expect(card).toContain(`<a class="btn small" data-open="SIM-1" href="/boards/SIM-1/?token=${TOKEN}">Open board 1 with controls</a>`);
    // All calm: said so.
    const calm = withBoards([board(1)], initialClubState('arbiter'));
    expect(renderAlerts(calm, NOW, opts)).toContain('No board needs you');
    // Without a token (this machine's own page): the links carry none.
    expect(boardHref('SIM-1', { mode: 'arbiter', token: null })).toBe('/boards/SIM-1/');
  });

  it('says clearly when the server refuses the page, and what to do', () => {
    const refused = msg(initialClubState('arbiter'), { type: 'error', code: 'forbidden', message: 'the control token is wrong' });
    const html = renderProblem(refused, { mode: 'arbiter', token: 'nope' });
    expect(html).toContain('role="alert"');
    expect(html).toContain('<strong>Not allowed.</strong> The control token is wrong. The arbiter’s page needs');
    expect(html).toContain('/arbiter?token=…');
    expect(renderClubConnection(refused, NOW)).toContain('Not allowed');
    expect(renderGrid(refused, NOW, { mode: 'arbiter', token: 'nope' })).toContain('No boards to show');
    const watch = msg(initialClubState('watch'), { type: 'error', code: 'forbidden', message: 'this server answers only its own pages' });
    expect(renderProblem(watch, { mode: 'watch', token: null })).toContain('does not let this page watch');
  });
});

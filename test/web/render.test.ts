// Rendering: the SVG board (tiles, 32 dark squares where the rules put them,
// coins and kings, last move, captures, squares to fix, crowns awaited,
// flipping, the hand's hit areas) and the panels' words, from view states
// built out of real session messages.

import { describe, expect, it } from 'vitest';
import { colOf, rowOf } from '../../src/rules/squares.ts';
import { squareRowCol, squareXY } from '../../src/web/model.ts';
import {
  fixSentences,
  formatClock,
  renderBanner,
  renderBoard,
  renderEvalBar,
  renderHand,
  renderMoves,
  renderPlayers,
  renderRegions,
  renderStatus,
  renderToggles,
  squareList,
} from '../../src/web/render.ts';
import { initialState, reduce, type ViewState } from '../../src/web/state.ts';
import { TableServer } from './fixture.ts';

const NOW = 50_000;
const at = (raw: string, s: ViewState = initialState()) => reduce(s, { type: 'message', raw, now: NOW });
const feed = (s: ViewState, raws: string[]) => raws.reduce((st, r) => at(r, st), s);
const count = (html: string, re: RegExp) => (html.match(new RegExp(re, 'g')) ?? []).length;
const board = (s: ViewState) => renderBoard(s, { now: NOW });

/** Attributes of the elements whose class list has all the given classes (e.g. every piece group). */
function elements(html: string, cls: string): Record<string, string>[] {
  const want = cls.split(' ');
  const out: Record<string, string>[] = [];
  for (const m of html.matchAll(/<(?:g|rect|path|circle|polyline)\s[^>]*>/g)) {
    const attrs: Record<string, string> = {};
    for (const a of m[0].matchAll(/([\w-]+)="([^"]*)"/g)) attrs[a[1]] = a[2];
    const have = (attrs.class ?? '').split(/\s+/);
    if (want.every((c) => have.includes(c))) out.push(attrs);
  }
  return out;
}

/** A position in sync on the board, from a FEN. */
async function synced(fen?: string): Promise<{ t: TableServer; s: ViewState }> {
  const t = await TableServer.open();
  if (fen) t.session.newGame({ fen });
  t.setUp();
  t.take();
  return { t, s: at(t.hello()) };
}

describe('geometry', () => {
  it('puts every square where the rules do', () => {
    for (let s = 1; s <= 32; s++) {
      expect(squareRowCol(s)).toEqual({ row: rowOf(s - 1), col: colOf(s - 1) });
      const { x, y } = squareXY(s, false);
      expect((x + y) % 2).toBe(1);
      expect(squareXY(s, true)).toEqual({ x: 7 - x, y: 7 - y });
    }
    // Square 1 top row, second column; 32 bottom row, second-to-last column… as Black sits at the top.
    expect(squareXY(1, false)).toEqual({ x: 1, y: 0 });
    expect(squareXY(32, false)).toEqual({ x: 6, y: 7 });
  });
});

describe('board', () => {
  it('draws 16 tiles with 32 dark squares and the numbers 1–32', async () => {
    const { s } = await synced();
    const svg = board(s);
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.endsWith('</svg>')).toBe(true);
    expect(count(svg, /clip-path="url\(#tile\)"/)).toBe(16);
    expect(count(svg, /<rect class="dark"/)).toBe(32);
    const nums = [...svg.matchAll(/<text x="([\d.]+)" y="([\d.]+)">(\d+)<\/text>/g)];
    expect(nums.map((m) => Number(m[3]))).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
    // Each number sits in the top-left corner of its own square.
    for (const [, x, y, n] of nums) {
      const p = squareXY(Number(n), false);
      expect(Math.floor(Number(x))).toBe(p.x);
      expect(Math.floor(Number(y))).toBe(p.y);
    }
  });

  it('puts coins where the pieces are: black on 1–12, white on 21–32', async () => {
    const { s } = await synced();
    const pieces = elements(board(s), 'piece');
    expect(pieces).toHaveLength(24);
    expect(pieces.filter((p) => p['data-color'] === 'black').map((p) => Number(p['data-square']))).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
    ]);
    expect(pieces.filter((p) => p['data-color'] === 'white').map((p) => Number(p['data-square']))).toEqual([
      21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
    ]);
    expect(pieces.every((p) => p['data-coins'] === '1' && p['data-want'] === '1')).toBe(true);
    expect(count(board(s), /class="disc"/)).toBe(24);
    expect(count(board(s), /<path class="crown/)).toBe(0);
  });

  it('draws kings as two stacked coins with a crown', async () => {
    const { s } = await synced('W:W18,K27:BK6,10');
    const svg = board(s);
    const pieces = elements(svg, 'piece');
    expect(pieces.map((p) => [Number(p['data-square']), p['data-color'], p.class.includes('king')])).toEqual([
      [6, 'black', true],
      [10, 'black', false],
      [18, 'white', false],
      [27, 'white', true],
    ]);
    expect(count(svg, /class="disc"/)).toBe(6);
    expect(count(svg, /<path class="crown crown-b"/)).toBe(1);
    expect(count(svg, /<path class="crown crown-w"/)).toBe(1);
  });

  it('highlights the last move, its route and the captured square', async () => {
    const { t, s: s0 } = await synced();
    t.move(11, 15);
    t.move(24, 19);
    t.move(15, 24, [19]);
    const s = feed(s0, t.take());
    expect(s.snap!.moves.map((m) => m.text)).toEqual(['11-15', '24-19', '15x24']);
    const svg = board(s);
    expect(elements(svg, 'mark last-from').map((m) => m['data-mark'])).toEqual(['15']);
    expect(elements(svg, 'mark fix')).toEqual([]);
    expect(elements(svg, 'mark last-to').map((m) => m['data-mark'])).toEqual(['24']);
    expect(elements(svg, 'captured').map((m) => m['data-captured'])).toEqual(['19']);
    expect(svg).toMatch(/<polyline class="route" points="4\.5,3\.5 [\d.]+,[\d.]+" marker-end="url\(#arrow\)"\/>/);
    expect(elements(svg, 'piece').find((p) => p['data-square'] === '24')?.['data-color']).toBe('black');
  });

  it('marks the squares to fix on an illegal board, with what to do there', async () => {
    const { t, s: s0 } = await synced();
    t.move(11, 15);
    t.move(22, 18);
    t.move(15, 11);
    t.wait(3000);
    const s = feed(s0, t.take());
    expect(s.status.kind).toBe('illegal');
    const svg = board(s);
    expect(
      elements(svg, 'mark fix')
        .map((m) => Number(m['data-mark']))
        .sort((a, b) => a - b),
    ).toEqual([11, 15]);
    expect(elements(svg, 'badge badge-place').map((b) => b['data-fix'])).toEqual(['15']);
    expect(elements(svg, 'badge badge-remove').map((b) => b['data-fix'])).toEqual(['11']);
    // The board as it stands: 15 lifted (an outline of the black man), a coin on 11 that should not be there.
    const p15 = elements(svg, 'piece').find((p) => p['data-square'] === '15')!;
    expect(p15).toMatchObject({ 'data-coins': '0', 'data-want': '1', 'data-color': 'black' });
    expect(p15.class).toContain('differs');
    const p11 = elements(svg, 'piece').find((p) => p['data-square'] === '11')!;
    expect(p11).toMatchObject({ 'data-coins': '1', 'data-want': '0' });
    const status = renderStatus(s);
    expect(status).toContain('data-status="illegal"');
    expect(status).toContain('Illegal move');
    expect(status).toMatch(/A man cannot move backwards \(15 to 11\)/);
    expect(status).toContain('<li>Put a black man on 15</li>');
    expect(status).toContain('<li>Take the coin off 11</li>');
  });

  it('shows what to place where while setting up', async () => {
    const t = await TableServer.open();
    const s = at(t.hello());
    const svg = board(s);
    expect(elements(svg, 'mark setup-fix')).toHaveLength(24);
    expect(elements(svg, 'badge badge-place')).toHaveLength(24);
    expect(count(svg, /class="ghost ghost-b"/)).toBe(12);
    expect(count(svg, /class="ghost ghost-w"/)).toBe(12);
    const status = renderStatus(s);
    expect(status).toContain('Set up the board');
    expect(status).toContain('<li>Put a black man on 1–12</li>');
    expect(status).toContain('<li>Put a white man on 21–32</li>');
  });

  it('marks the square waiting for its crown', async () => {
    const { t, s: s0 } = await synced('B:W32:B26');
    t.move(26, 30);
    t.wait(300);
    const s = feed(s0, t.take());
    expect(s.status).toEqual({ kind: 'awaiting-crown', square: 30 });
    const svg = board(s);
    expect(elements(svg, 'mark crown-wait').map((m) => m['data-mark'])).toEqual(['30']);
    // One coin stands there; the crown to come is an outline.
    expect(elements(svg, 'piece').find((p) => p['data-square'] === '30')).toMatchObject({ 'data-coins': '1', 'data-want': '2' });
    expect(renderStatus(s)).toContain('Crown the king on 30');
  });

  it('flips: square 1 goes to the bottom, 32 to the top', async () => {
    const { s } = await synced();
    const flipped = board(reduce(s, { type: 'flip' }));
    expect(flipped).toContain('data-flipped="true"');
    expect(flipped).toContain('aria-label="Board, White at the top"');
    expect(flipped).toMatch(/<text x="6\.05" y="7\.175">1<\/text>/);
    expect(flipped).toMatch(/<text x="1\.05" y="0\.175">32<\/text>/);
    expect(board(s)).toMatch(/<text x="1\.05" y="0\.175">1<\/text>/);
    // Pieces move with their squares.
    const p1 = (svg: string) =>
      /<g class="piece" data-square="1"[^>]*>(<g class="coin[^"]*"><circle class="shadow" cx="([\d.]+)" cy="([\d.]+)")/.exec(svg);
    expect(Number(p1(board(s))![3])).toBeLessThan(1);
    expect(Number(p1(flipped)![3])).toBeGreaterThan(7);
  });

  it('offers the hand on the simulated board only, as keyboard buttons', async () => {
    const { t, s } = await synced();
    const svg = board(s);
    const hits = elements(svg, 'hit');
    expect(hits).toHaveLength(32);
    expect(hits.every((h) => h.role === 'button' && h['data-act'] === 'square')).toBe(true);
    // One tab stop for the board (a roving tabindex): the square the arrow keys last reached.
    expect(hits.filter((h) => h.tabindex === '0').map((h) => h['data-sq'])).toEqual(['1']);
    expect(
      elements(board(reduce(s, { type: 'board-focus', square: 22 })), 'hit')
        .filter((h) => h.tabindex === '0')
        .map((h) => h['data-sq']),
    ).toEqual(['22']);
    expect(hits[10]['aria-label']).toBe('Square 11, black man: lift');
    expect(hits[14]['aria-label']).toBe('Square 15, empty: place');
    expect(renderHand(s)).toContain('data-act="hand-setup"');
    const real = at(t.hello({ sim: false }));
    expect(elements(board(real), 'hit')).toHaveLength(0);
    expect(renderHand(real)).toBe('');
  });
});

describe('panels', () => {
  it('move list: numbered rows in PDN with the current move, then the result', async () => {
    const { t, s: s0 } = await synced();
    t.move(11, 15);
    t.move(23, 19);
    t.move(8, 11);
    let s = feed(s0, t.take());
    let html = renderMoves(s);
    // Each move is a button that shows its position (review mode).
    expect(html).toMatch(
      /<tr><th scope="row">1\.<\/th><td class="mv" data-act="review" data-to="1"[^>]*>11-15<\/td><td class="mv" data-act="review" data-to="2"[^>]*>23-19<\/td><\/tr>/,
    );
    expect(html).toMatch(
      /<tr><th scope="row">2\.<\/th><td class="mv current" data-act="review" data-to="3"[^>]*aria-current="step">8-11<\/td><td class="mv empty">…<\/td><\/tr>/,
    );
    expect(html).toContain('White to move');
    t.session.resign('white');
    s = feed(s, t.take());
    html = renderMoves(s);
    expect(html).toContain('data-result="1-0"');
    expect(html).toContain('Black wins');
    expect(html).not.toContain('to move');
    expect(renderStatus(s)).toContain('Game over');
    expect(renderStatus(s)).toContain('Black wins: White resigned.');
  });

  it('players: names from the tags (escaped), side to move, per-side controls', async () => {
    const { t, s: s0 } = await synced();
    t.session.setTags({ Black: 'Ann <b>', White: 'Marion Tinsley', Event: 'Club night' });
    const s = feed(s0, t.take());
    const html = renderPlayers(s, NOW);
    expect(html).toContain('Ann &lt;b&gt;');
    expect(html).not.toContain('<b>');
    expect(html).toContain('Marion Tinsley');
    expect(html).toContain('Club night');
    expect(html).toMatch(/class="player player-black p-top to-move"/);
    expect(count(html, /data-act="resign"/)).toBe(2);
    expect(count(html, /data-act="offer-draw"/)).toBe(2);
    // A draw offer: the other side may accept or decline.
    t.session.offerDraw('black');
    const offered = feed(s, t.take());
    const h2 = renderPlayers(offered, NOW);
    expect(h2).toMatch(/data-act="accept-draw" data-side="white"/);
    expect(h2).toMatch(/data-act="decline-draw"/);
    expect(renderStatus(offered)).toContain('Black offers a draw.');
    // Armed resign asks for confirmation.
    const armed = reduce(s, { type: 'arm', key: 'resign-white', now: NOW });
    expect(renderPlayers(armed, NOW)).toContain('Confirm resign?');
  });

  it('clocks: shown, counted down between ticks, with start/pause', async () => {
    const t = await TableServer.open({ timeControl: '5m+3s' });
    t.setUp();
    t.take();
    // Set up, no move yet: the clocks wait, and say so; "Start clock" is there from the start.
    const waiting = reduce(initialState(), { type: 'message', raw: t.hello(), now: NOW });
    expect(waiting.clock).toMatchObject({ running: null, started: false, black: 300_000, white: 300_000 });
    const h0 = renderPlayers(waiting, NOW + 61_000);
    expect(h0).toContain('data-act="clock-start"');
    expect(h0).toContain('clocks start with the first move');
    expect(h0).toContain('5 min + 3 s');
    expect(h0).toContain(`aria-label="Black's clock">5:00<`);
    // The first move starts White's clock.
    t.move(11, 15);
    t.take();
    const s = reduce(initialState(), { type: 'message', raw: t.hello(), now: NOW });
    expect(s.clock?.running).toBe('white');
    const white = s.clock!.white;
    const html = renderPlayers(s, NOW + 61_000);
    expect(html).toContain(`data-clock="white" role="timer" aria-label="White's clock">${formatClock(white - 61_000)}<`);
    expect(html).toMatch(/class="clock running" data-clock="white"/);
    expect(html).toContain('data-act="clock-pause"');
    expect(html).not.toContain('clocks start with the first move');
    // Offline the clocks stand still and none is shown running.
    const off = reduce(s, { type: 'socket', state: 'closed', now: NOW + 1000, retryInMs: 500 });
    const h2 = renderPlayers(off, NOW + 61_000);
    expect(h2).toContain(`aria-label="White's clock">${formatClock(white)}<`);
    expect(h2).not.toMatch(/class="clock running"/);
    expect(renderStatus(off)).toContain('data-status="offline"');
    expect(renderStatus(off)).toContain('Offline');
    expect(renderStatus(off)).not.toContain('in sync');
  });

  it('read-only: no controls, no hand, downloads still there', async () => {
    const { t } = await synced();
    const s = at(t.hello({ readOnly: true }));
    const r = renderRegions(s, NOW);
    const all = Object.values(r).join('');
    expect(all).not.toMatch(/data-act="(resign|offer-draw|takeback|hand-setup|square|clock-start)"/);
    expect(r.hand).toBe('');
    expect(r.game).toContain('href="/api/current.pdn"');
    expect(r.game).toContain('data-act="archive-open"');
    expect(r.banner).toContain('Read-only view');
    // Display toggles stay.
    expect(r.toggles).toContain('data-act="flip"');
    expect(r.toggles).toContain('data-act="toggle-speech"');
  });

  it('banner: reconnecting, with the countdown and attempt', async () => {
    const { s } = await synced();
    const lost = reduce(s, { type: 'socket', state: 'closed', now: NOW, retryInMs: 4000 });
    expect(renderBanner(lost, NOW + 1000)).toContain('reconnecting in 3 s (attempt 1)');
    expect(renderRegions(lost, NOW).conn).toContain('Offline');
    expect(renderBanner(s, NOW)).toBe('');
  });

  it('words: square lists, grouped fixes, clock times', () => {
    expect(squareList([3, 1, 2, 4, 9, 6, 7])).toBe('1–4, 6, 7 and 9');
    expect(squareList([15])).toBe('15');
    expect(
      fixSentences([
        { square: 2, action: 'place', piece: 'a black man', coins: 1 },
        { square: 1, action: 'place', piece: 'a black man', coins: 1 },
        { square: 30, action: 'place', piece: 'a second coin (crown)', coins: 1 },
        { square: 11, action: 'remove', piece: 'the coin', coins: 1 },
      ]),
    ).toEqual(['Put a black man on 1 and 2', 'Put a second coin (crown) on 30', 'Take the coin off 11']);
    expect(formatClock(300_000)).toBe('5:00');
    expect(formatClock(61_001)).toBe('1:02');
    expect(formatClock(9_950)).toBe('9.9');
    expect(formatClock(3_725_000)).toBe('1:02:05');
    expect(formatClock(-5)).toBe('0.0');
  });
});

describe('playing the computer', () => {
  it("draws the computer's move as a dashed route and says it in the status; while it thinks, says so", async () => {
    const { t, s } = await synced();
    const snap = t.session.snapshot();
    const withMove = {
      ...s,
      snap: {
        ...snap,
        computer: { side: 'white' as const, level: 7, thinking: false, move: { text: '22-18', from: 22, path: [18], captures: [] } },
      },
    };
    const routes = elements(board(withMove), 'computer-route');
    expect(routes).toHaveLength(1);
    expect(routes[0]['data-computer']).toBe('22-18');
    expect(renderStatus(withMove)).toContain('The computer (White, level 7) plays <strong>22-18</strong>: carry it out on the board.');
    const thinking = {
      ...s,
      snap: { ...snap, turn: 'white' as const, computer: { side: 'white' as const, level: 7, thinking: true, move: null } },
    };
    expect(renderStatus(thinking)).toContain('The computer (White, level 7) is thinking…');
    expect(elements(board(thinking), 'computer-route')).toHaveLength(0);
    // Two players: nothing about a computer.
    expect(renderStatus(s)).not.toContain('computer');
  });
});

describe('the analysis of a finished game', () => {
  it('offers "Analyse game" once the game is over; then marks the moves, names the better move, and links the annotated PDN', async () => {
    const { t } = await synced('B:W22,30:B1,14');
    t.move(14, 18);
    t.move(22, 15, [18]);
    expect(t.session.game.plies).toHaveLength(2);
    t.session.resign('black');
    const s = at(t.hello());
    expect(renderMoves(s)).toContain('id="b-analyse"');
    const comment = 'Blunder: 14-17 was better (+0.05 against -1.00)';
    const analysed = {
      ...s,
      snap: { ...s.snap!, analysis: { running: false, marks: [{ ply: 0, mark: '??' as const, better: '14-17', comment }] } },
    };
    const html = renderMoves(analysed);
    expect(html).toContain(`14-18<span class="mark-blunder" title="${comment}">??</span>`);
    expect(html).toContain('href="/api/current.pdn?annotated=1"');
    expect(html).not.toContain('id="b-analyse"');
    const running = { ...s, snap: { ...s.snap!, analysis: { running: true, marks: [] } } };
    expect(renderMoves(running)).toContain('Analysing the game…');
  });
});

describe('the evaluation bar', () => {
  it("shows the engine's score as a bar and in words when on, a toggle to turn it on, nothing when off", async () => {
    const { s } = await synced();
    expect(renderToggles(s)).toContain('id="t-evaluation"');
    expect(renderEvalBar(s)).toBe('');
    const on = { ...s, snap: { ...s.snap!, evaluation: { score: 150, text: 'Black +1.50' } } };
    // A vertical bar beside the board; the signed score, from the side it favours, in the players card.
    const html = renderEvalBar(on);
    expect(html).toContain('aria-label="Evaluation: Black +1.50"');
    const height = Number(/eval-black" style="height:([\d.]+)%/.exec(html)![1]);
    expect(height).toBeGreaterThan(60);
    expect(renderPlayers(on, NOW)).toContain('Evaluation: <strong>Black +1.50</strong>');
    // Zero is "equal" (not "level", which reads like the computer's level).
    const level = { ...s, snap: { ...s.snap!, evaluation: { score: 0, text: 'level' } } };
    expect(renderEvalBar(level)).toContain('aria-label="Evaluation: equal"');
    expect(renderPlayers(level, NOW)).toContain('Evaluation: <strong>equal</strong>');
    expect(renderPlayers(level, NOW)).not.toContain('level');
    expect(renderToggles(on)).toContain('aria-pressed="true"');
    const tournament = { ...s, snap: { ...s.snap!, options: { ...s.snap!.options, tournament: true } } };
    expect(renderToggles(tournament)).not.toContain('t-evaluation');
  });
});

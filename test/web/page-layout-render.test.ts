// The page's layout and form in Node, without a browser: the
// reducer and the renderers for the time call as the status, a finished game
// without a tick, a held coin kept (a second lift adds to the hand), the board's one tab stop, the better
// move drawn in review, "Ballot 51" without a colon, the archive's moves and
// times, Flip's aria-pressed, and the form's time control from a tag. The
// browser side of the same items is test/web/page-layout.test.ts.

import { describe, expect, it } from 'vitest';
import { formTimeControl } from '../../src/web/model.ts';
import { archiveDate, renderArchive, renderBoard, renderHand, renderPlayers, renderStatus, renderToggles } from '../../src/web/render.ts';
import { handAfter, handCommand, initialState, reduce, statusHeadline, timeCall, type ViewState } from '../../src/web/state.ts';
import { TableServer } from './fixture.ts';

const NOW = 50_000;
const at = (raw: string, s: ViewState = initialState()) => reduce(s, { type: 'message', raw, now: NOW });

async function synced(opts: { timeControl?: string } = {}): Promise<{ t: TableServer; s: ViewState }> {
  const t = await TableServer.open(opts);
  t.setUp();
  t.take();
  return { t, s: at(t.hello()) };
}

describe('the time call', () => {
  it('is the status, with the grace left counted down between clock messages', async () => {
    const { s } = await synced({ timeControl: '5m/move,1m/forced' });
    const clock = {
      ...s.clock!,
      running: 'black' as const,
      started: true,
      perMove: { side: 'black' as const, limit: 300_000, forced: false, timeCalled: 'black' as const, graceLeft: 42_000 },
    };
    const called: ViewState = { ...s, clock, clockAt: NOW };
    expect(timeCall(called, NOW)).toEqual({ side: 'black', graceLeft: 42_000 });
    expect(timeCall(called, NOW + 2_000)).toEqual({ side: 'black', graceLeft: 40_000 });
    expect(statusHeadline(called, NOW)).toEqual({ tone: 'time', title: 'Time, Black!' });
    const html = renderStatus(called, NOW + 2_000);
    expect(html).toContain('status-time');
    expect(html).toContain('data-time="called"');
    expect(html).toContain('Black must move within <strong class="grace" data-grace="black">0:40</strong>');
    expect(html).not.toContain('Board in sync');
    // Not called: the usual headline.
    expect(statusHeadline(s, NOW).title).toBe('Black to move');
    // The limit runs out between messages: the page calls it itself.
    const running: ViewState = {
      ...s,
      clock: { ...clock, black: 1_000, perMove: { ...clock.perMove, timeCalled: null, graceLeft: 60_000 } },
      clockAt: NOW,
    };
    expect(timeCall(running, NOW)).toBeNull();
    expect(timeCall(running, NOW + 3_000)).toEqual({ side: 'black', graceLeft: 58_000 });
  });
});

describe('a finished game', () => {
  it('shows a flag, not a tick', async () => {
    const { s } = await synced();
    expect(renderStatus(s)).toContain('>✓<');
    const over: ViewState = { ...s, snap: { ...s.snap!, result: '0-1', outcome: { winner: 'white', reason: 'resignation' } } };
    expect(renderStatus(over)).not.toContain('✓');
    expect(renderStatus(over)).toContain('Game over');
  });
});

describe('the hand and the board', () => {
  it('keeps a held coin when an occupied square is clicked: the hand takes that one too, and puts them down one by one', async () => {
    const { s } = await synced();
    const send = (st: ViewState, square: number, id: string) => {
      const c = handCommand(st, square, { now: NOW })!;
      return { c, st: reduce(st, { type: 'command-sent', id, command: c, now: NOW }) };
    };
    let st = s;
    ({ st } = send(st, 11, 'a'));
    expect(st.held).toBe(1);
    const second = send(st, 10, 'b');
    expect(second.c).toEqual({ name: 'hand', action: 'lift', square: 10 });
    st = second.st;
    expect(st.held).toBe(2);
    expect(st.heldStack).toEqual([1, 1]);
    expect(renderHand(st)).toContain('In hand: 2 coins');
    // Two men, not a king: each goes down as one coin.
    const put = send(st, 15, 'c');
    expect(put.c).toEqual({ name: 'hand', action: 'place', square: 15 });
    expect(put.st.held).toBe(1);
    expect(handAfter([2], 'set', 2)).toEqual([]);
    expect(handAfter([1, 2], 'place', 1)).toEqual([1, 1]);
    expect(handAfter([], 'place', 1)).toEqual([]);
  });

  it('has one tab stop, moved by board-focus', async () => {
    const { s } = await synced();
    const tabStops = (st: ViewState) =>
      [...renderBoard(st, { now: NOW }).matchAll(/id="sq-(\d+)"[^>]*tabindex="0"/g)].map((m) => Number(m[1]));
    expect(tabStops(s)).toEqual([1]);
    expect(tabStops(reduce(s, { type: 'board-focus', square: 30 }))).toEqual([30]);
    expect(reduce(s, { type: 'board-focus', square: 33 })).toBe(s);
  });

  it('draws the better move when reviewing a move the analysis marks', async () => {
    const { t } = await synced();
    t.move(11, 15);
    t.move(24, 20);
    t.move(8, 11);
    const s0 = at(t.state(), at(t.hello()));
    expect(s0.snap!.moves).toHaveLength(3);
    const analysed: ViewState = {
      ...s0,
      snap: {
        ...s0.snap!,
        analysis: {
          running: false,
          marks: [{ ply: 1, mark: '?', better: '22-18', comment: 'Mistake: 22-18 was better (+0.10 against -0.70)' }],
        },
      },
    };
    const after = reduce(analysed, { type: 'review', to: 2 });
    expect(renderBoard(after, { now: NOW })).toMatch(
      /<polyline class="better-route" data-better="22-18" points="[^"]+" marker-end="url\(#arrow-better\)">/,
    );
    expect(renderBoard(reduce(analysed, { type: 'review', to: 1 }), { now: NOW })).not.toContain('better-route');
    expect(renderBoard(analysed, { now: NOW })).not.toContain('better-route');
  });
});

describe('small words', () => {
  it('says "Ballot 51" without a dangling colon, and names an opening when it has one', async () => {
    const { s } = await synced();
    const b51: ViewState = { ...s, snap: { ...s.snap!, ballot: 51, tags: { ...s.snap!.tags, Ballot: 'ACF 51' } } };
    expect(renderPlayers(b51, NOW)).toContain('<p class="event">Ballot 51</p>');
    const named: ViewState = { ...s, snap: { ...s.snap!, ballot: 5, tags: { ...s.snap!.tags, Ballot: 'ACF 5 Dreaded Edinburgh' } } };
    expect(renderPlayers(named, NOW)).toContain('<p class="event">Ballot 5: Dreaded Edinburgh</p>');
  });

  it('counts moves, not plies, in the archive, and dates games with their time', () => {
    const s: ViewState = {
      ...initialState(),
      archive: {
        open: true,
        entries: [
          {
            id: 'g1',
            event: '',
            black: 'A',
            white: 'B',
            date: '2026.11.25',
            result: '*',
            plies: 7,
            modified: new Date(2026, 10, 25, 21, 48).getTime(),
            current: false,
          },
        ],
        loading: false,
        error: null,
        sort: 'date',
        descending: true,
      },
    };
    const html = renderArchive(s, NOW);
    expect(html).toContain('<td class="num" data-plies="7">4</td>');
    expect(html).toContain('2026-11-25 21:48');
    expect(archiveDate(0, '2026.11.25')).toBe('2026.11.25');
  });

  it('Flip says whether it is pressed', () => {
    const s = initialState();
    expect(renderToggles(s)).toMatch(/id="t-flip"[^>]*aria-pressed="false"/);
    expect(renderToggles(reduce(s, { type: 'flip' }))).toMatch(/id="t-flip"[^>]*aria-pressed="true"/);
  });

  it('writes a TimeControl tag the way the form takes it', () => {
    expect(formTimeControl('300+3')).toBe('300s+3s');
    expect(formTimeControl('900')).toBe('900s');
    expect(formTimeControl('40/5400:1800')).toBe('40/5400s,1800s');
    expect(formTimeControl('2s/move,2s/forced,60s/grace')).toBe('2s/move,2s/forced,60s/grace');
    expect(formTimeControl('')).toBe('');
  });
});

// The page's engine work, log and sensor view in Node, without a browser: the engine work a page
// asked for keeps its button disabled until answered, the analysis' progress
// in words, a quiet sentence re-sent while the board settles logged once, and
// the sensor view's colours and square-test findings.
// The browser side is test/web/engine-work-browser.test.ts.

import { describe, expect, it } from 'vitest';
import { analysisProgress, answered, asked, hintBusy } from '../../src/web/engine-work.ts';
import { renderGameControls, renderMoves } from '../../src/web/render.ts';
import { initialState, reduce, type ViewState } from '../../src/web/state.ts';
import { TableServer } from './fixture.ts';
import { coinSteps, heat } from '../../src/web/sensors.ts';
import { testResult } from '../../src/server/sensor-view.ts';
import { BringUp } from '../../src/doctor/bring-up.ts';

const NOW = 50_000;
const at = (raw: string, s: ViewState = initialState()) => reduce(s, { type: 'message', raw, now: NOW });

describe('engine work on the page', () => {
  it('a hint asked for keeps its button disabled until the server answers; then the snapshot says', async () => {
    const t = await TableServer.open();
    t.setUp();
    t.take();
    let s = at(t.hello());
    expect(renderGameControls(s)).toMatch(/<button type="button" id="b-hint" class="btn" data-act="hint">Hint<\/button>/);
    s = reduce(s, { type: 'command-sent', id: 'h1', command: { name: 'hint' }, now: NOW });
    expect(hintBusy(s.asked, s.snap)).toBe(true);
    expect(renderGameControls(s)).toContain('id="b-hint" class="btn busy" data-act="hint" disabled aria-busy="true"');
    s = at(JSON.stringify({ v: 1, type: 'ok', id: 'h1' }), s);
    expect(s.asked).toEqual({});
    expect(hintBusy(s.asked, s.snap)).toBe(false);
    expect(hintBusy({}, { ...s.snap!, hinting: true })).toBe(true);
    // other commands are not engine work
    expect(asked({}, 'x', { name: 'resign', side: 'black' })).toEqual({});
    expect(answered({ analyse: 'a' }, 'b')).toEqual({ analyse: 'a' });
  });

  it('the analysis shows moves checked of the total, with a Cancel button', async () => {
    const t = await TableServer.open();
    t.setUp();
    t.take();
    t.move(11, 15);
    t.move(24, 20);
    let s = at(t.hello());
    const snap = { ...s.snap!, result: '1-0' as const, outcome: { winner: 'black' as const, reason: 'resignation' as const } };
    s = { ...s, snap: { ...snap, analysis: { running: true, marks: [], done: 1, total: 2 } } };
    expect(analysisProgress(s.snap!)).toBe('Analysing the game: 1 of 2 moves checked');
    const html = renderMoves(s);
    expect(html).toContain('<progress id="analysis-bar" max="2" value="1">');
    expect(html).toContain('data-act="cancel" data-what="analysis"');
    expect(html).not.toContain('id="b-analyse"');
    // asked, not yet answered: the button is there but disabled
    const waiting = { ...s, snap: { ...snap, analysis: null }, asked: { analyse: 'a1' } };
    expect(renderMoves(waiting)).toContain('id="b-analyse" class="btn" data-act="analyse" disabled aria-busy="true"');
  });
});

describe('the log', () => {
  it('keeps one copy of a quiet sentence re-sent unchanged (a set-up list while the board settles)', async () => {
    const t = await TableServer.open();
    let s = at(t.hello());
    const setup = (say: string) => JSON.stringify({ v: 1, type: 'event', event: { type: 'setup', fixes: [], say }, state: s.snap });
    for (let i = 0; i < 6; i++) s = at(setup('Take the coin off 8 and 23.'), s);
    expect(s.log.map((a) => a.text)).toEqual(['Take the coin off 8 and 23.']);
    s = at(setup('Put a black man on 15.'), s);
    s = at(setup('Take the coin off 8 and 23.'), s);
    expect(s.log).toHaveLength(3);
  });
});

describe('the sensor view', () => {
  it('colours a reading by its coin steps from empty: noise stays dark, a flipped magnet is blue, a stack hottest', () => {
    const lv = { empty: 500, one: 700, two: 780, flipped: 428 };
    expect(coinSteps(500, lv)).toBe(0);
    expect(coinSteps(700, lv)).toBe(1);
    expect(coinSteps(430, lv)).toBeCloseTo(-0.35);
    expect(heat(coinSteps(498, lv))).toBe(heat(0));
    expect(heat(coinSteps(430, lv))).toMatch(/^hsl\(210 /);
    expect(heat(coinSteps(780, lv))).not.toBe(heat(1));
  });

  it('names what a square test found, as the doctor would', () => {
    const run = (moved: { square: number; dev: number }[], extra: Partial<{ timedOut: boolean; stuck: boolean }> = {}) => {
      const m = new BringUp({ squares: [14] });
      m.obs.responses.push({ square: 14, moved, timedOut: false, stuck: false, ...extra });
      return testResult(14, m);
    };
    expect(run([{ square: 14, dev: 180 }])).toMatchObject({
      ok: true,
      text: '14 is good: a coin reads +180 counts above its zero and nothing else moved.',
    });
    expect(run([], { timedOut: true }).text).toMatch(/^Nothing answered a coin on 14: its sensor may be dead/);
    expect(run([{ square: 15, dev: 170 }]).text).toMatch(/^A coin on 14 moved 15 \(\+170\) instead: the sensors are swapped/);
    expect(run([{ square: 14, dev: -160 }]).text).toMatch(
      /answered the wrong way \(-160 counts\): the sensor is mounted the wrong way round/,
    );
    expect(
      run([
        { square: 14, dev: 150 },
        { square: 18, dev: 60 },
      ]).text,
    ).toMatch(/but so did 18 \(\+60\): crosstalk/);
    expect(run([{ square: 14, dev: 150 }], { stuck: true }).ok).toBe(false);
  });
});

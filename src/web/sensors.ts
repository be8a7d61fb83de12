// The builder's sensor view, a panel opened from the game
// controls by a page with control rights: the live raw reading of all 32
// sensors as a heat map on the board (how far each stands from its empty
// level, in coin steps), each square's learnt levels (empty / one coin / two
// / flipped) on the square and in its title, and the per-square test of
// `crownhead doctor` started by clicking a square. The readings come from GET
// /api/sensors.json, asked a few times a second while the panel is open
// (main.ts), never pushed to other pages. Pure rendering, like render.ts.

import type { SensorSnapshot } from '../protocol/v1.ts';
import { button, esc } from './html.ts';
import { squareXY } from './model.ts';

export interface SensorPanel {
  open: boolean;
  snap: SensorSnapshot | null;
  error: string | null;
}

/** How often the open panel asks for the latest reading, ms (4 a second: the board sends 100). */
export const SENSOR_POLL_MS = 250;

/** A reading in coin steps from its square's empty level (0 empty, 1 one coin, below 0 a coin upside down). */
export function coinSteps(reading: number, level: SensorSnapshot['levels'][number]): number {
  const span = level.one - level.empty;
  return span > 0 ? (reading - level.empty) / span : 0;
}

/** The heat map's colour for a reading: dark when empty, warm for a coin, hot for a stack, blue for a flipped magnet. */
export function heat(steps: number): string {
  // (Noise about the empty level is not a flip: blue from a fifth of a step below empty.)
  if (steps < -0.2) return `hsl(210 70% ${Math.round(30 + Math.min(1, -steps) * 30)}%)`;
  const x = Math.min(1, Math.max(0, steps) / 2.2);
  return `hsl(${Math.round(50 - x * 50)} 80% ${Math.round(18 + x * 42)}%)`;
}

export function renderSensors(p: SensorPanel): string {
  if (!p.open) return '';
  const s = p.snap;
  const cells: string[] = [];
  for (let sq = 1; sq <= 32; sq++) {
    const { x, y } = squareXY(sq, false);
    const lv = s?.levels[sq - 1];
    const r = s?.readings?.[sq - 1];
    const steps = lv && r !== undefined ? coinSteps(r, lv) : 0;
    const title = lv
      ? `Square ${sq}: reading ${r ?? '?'}; empty ${lv.empty}, one coin ${lv.one}, two ${lv.two}, upside down below ${lv.flipped}`
      : `Square ${sq}`;
    const testing = s?.test?.square === sq;
    cells.push(
      `<button type="button" class="sv-sq${testing ? ' testing' : ''}" id="sv-${sq}" data-act="sensor-test" data-sq="${sq}" style="grid-column:${x + 1};grid-row:${y + 1};background:${heat(steps)}" title="${esc(title)}" aria-label="${esc(title)}. Test this sensor.">` +
        `<span class="n">${sq}</span><span class="r" data-reading="${r ?? ''}">${r === undefined ? '–' : Math.round(r)}</span>` +
        (lv ? `<span class="lv">${Math.round(lv.empty)}/${Math.round(lv.one)}/${Math.round(lv.two)}</span>` : '') +
        `</button>`,
    );
  }
  const t = s?.test;
  const test = t
    ? t.result
      ? `<p class="sv-result ${t.result.ok ? 'ok' : 'bad'}" id="sv-result" role="status">${esc(t.result.text)}</p>`
      : `<p class="sv-step" id="sv-step" role="status">Testing ${t.square}: ${esc(t.instruction)}</p>${button('sensor-test-stop', 'Stop the test', {}, 'small')}`
    : '<p class="note" id="sv-step">Click a square to test its sensor, as <code>crownhead doctor</code> does: put a coin on it, then lift it.</p>';
  const status = p.error
    ? `<p class="form-error">${esc(p.error)}</p>`
    : !s
      ? '<p class="note">Reading…</p>'
      : `<p class="note">${s.readings ? 'Live readings' : 'No frame from the board yet'}; levels ${s.calibrated ? 'as learnt' : 'nominal (not calibrated yet)'}: empty / one coin / two. Colour: how far each reading stands from its empty level.</p>`;
  return (
    `<div class="sensor-panel card" role="dialog" aria-modal="true" aria-labelledby="sensors-title">` +
    `<div class="archive-head"><h2 id="sensors-title">Sensor view</h2>${button('sensors-close', 'Close', {}, 'small')}</div>` +
    status +
    `<div class="sv-board" id="sv-board">${cells.join('')}</div>` +
    test +
    `</div>`
  );
}

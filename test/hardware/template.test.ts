// The drawings are at true scale: a printed template whose squares are not
// 25.4 mm puts sensors off-centre (the old one printed 21.2 mm squares), and a
// cutter file in the wrong units cuts the wrong part.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BOARD, HARDWARE_DIR, OUTPUTS, RING_INNER, SCALE_BAR, squareCentre, TEMPLATE } from '../../hardware/tools/diagrams.ts';
import {
  LEAD_HOLES,
  MOUNT_HOLES,
  SENSOR_BODY,
  SENSOR_WINDOW,
  SPACER_HOLE_D,
  STANDOFF_D,
  STRIP,
  UNDER,
  quarterOf,
} from '../../hardware/tools/geometry.ts';

const read = (f: string) => readFileSync(`${HARDWARE_DIR}${f}`, 'utf8');

/** Millimetres per user unit, from the root element's width/height (must be in mm) and viewBox. */
function mmPerUnit(svg: string): { sx: number; sy: number; w: number; h: number } {
  const root = /<svg\b[^>]*>/.exec(svg)![0];
  const w = /\swidth="([\d.]+)mm"/.exec(root),
    h = /\sheight="([\d.]+)mm"/.exec(root);
  const vb = /\sviewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(root);
  expect(w, 'width in mm').not.toBeNull();
  expect(h, 'height in mm').not.toBeNull();
  expect(vb, 'viewBox').not.toBeNull();
  return { sx: Number(w![1]) / Number(vb![1]), sy: Number(h![1]) / Number(vb![2]), w: Number(w![1]), h: Number(h![1]) };
}

function attrs(tag: string): Record<string, string> {
  return Object.fromEntries([...tag.matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
}

describe('hardware/squares.svg prints at true scale', () => {
  const svg = read('squares.svg');
  const { sx, sy, w, h } = mmPerUnit(svg);

  it('declares its size in mm, 1 unit = 1 mm, and fits an A3 sheet', () => {
    expect(sx).toBe(1);
    expect(sy).toBe(1);
    expect(w).toBeLessThanOrEqual(297);
    expect(h).toBeLessThanOrEqual(420);
  });

  it('the board is 203.2 mm and every dark square 25.4 mm, centred where the carrier puts its sensor', () => {
    const board = attrs(/<rect id="board"[^>]*>/.exec(svg)![0]);
    expect(Number(board.width) * sx).toBeCloseTo(203.2, 6);
    expect(Number(board.height) * sy).toBeCloseTo(203.2, 6);
    for (let sq = 1; sq <= 32; sq++) {
      const g = new RegExp(`<g id="sq${sq}">\\n<rect ([^>]*)>`).exec(svg);
      expect(g, `square ${sq}`).not.toBeNull();
      const r = attrs(g![1]);
      expect(Number(r.width) * sx).toBeCloseTo(25.4, 6);
      expect(Number(r.height) * sy).toBeCloseTo(25.4, 6);
      const [cx, cy] = squareCentre(sq);
      expect(Number(r.x) + 12.7 - Number(board.x)).toBeCloseTo(cx, 6);
      expect(Number(r.y) + 12.7 - Number(board.y)).toBeCloseTo(cy, 6);
    }
    expect(Number(board.x)).toBe(TEMPLATE.margin);
  });

  it('has a 50 mm scale bar, labelled', () => {
    const bar = attrs(/<line id="scale-bar-line"[^>]*>/.exec(svg)![0]);
    expect((Number(bar.x2) - Number(bar.x1)) * sx).toBeCloseTo(50, 6);
    expect(SCALE_BAR).toBe(50);
    expect(svg).toMatch(/<g id="scale-bar">[\s\S]*50 mm[\s\S]*<\/g>/);
  });
});

describe('hardware/carrier.svg (laser cutter / 3D printer)', () => {
  const svg = read('carrier.svg');
  const { sx } = mmPerUnit(svg);

  it('is in mm, with a 203.2 mm carrier and one sensor rectangle per dark square holding the body centred under it and its legs', () => {
    expect(sx).toBe(1);
    const outline = attrs(/<rect id="carrier-outline"[^>]*>/.exec(svg)![0]);
    expect(Number(outline.width)).toBeCloseTo(BOARD, 6);
    for (let sq = 1; sq <= 32; sq++) {
      const p = attrs(new RegExp(`<rect id="sensor${sq}"[^>]*>`).exec(svg)![0]);
      const [cx, cy] = squareCentre(sq);
      // the body (its Hall element at the centre) lies inside, and so do the three leg holes below it
      const inside = (x: number, y: number) =>
        x > Number(p.x) && x < Number(p.x) + Number(p.width) && y > Number(p.y) && y < Number(p.y) + Number(p.height);
      for (const [dx, dy] of [
        [-1, -1],
        [1, -1],
        [-1, 1],
        [1, 1],
      ])
        expect(inside(cx + (dx * SENSOR_BODY[0]) / 2, cy + (dy * SENSOR_BODY[1]) / 2), `square ${sq} body`).toBe(true);
      for (const l of LEAD_HOLES) expect(inside(cx + l.dx, cy + l.dy), `square ${sq} ${l.pin}`).toBe(true);
      expect(Number(p.x) + Number(p.width) / 2).toBeCloseTo(cx, 6);
      expect(Number(p.y)).toBeCloseTo(cy + SENSOR_WINDOW.y0, 6);
    }
  });

  it('has two M3 holes in every 101.6 mm quarter, far apart, on light squares clear of every sensor window', () => {
    const holes = [...svg.matchAll(/<circle class="mount"[^>]*>/g)].map((m) => attrs(m[0]));
    expect(holes.length).toBe(MOUNT_HOLES.length);
    const perQuarter = [0, 0, 0, 0];
    for (const h of holes) {
      const x = Number(h.cx) - 5,
        y = Number(h.cy) - 5; // the carrier group is translated by its 5 mm margin
      perQuarter[quarterOf(x, y)]++;
      for (let sq = 1; sq <= 32; sq++) {
        const [cx, cy] = squareCentre(sq);
        expect(Math.hypot(x - cx, y - cy), `hole ${x},${y} to sensor ${sq}`).toBeGreaterThan(20);
      }
    }
    expect(perQuarter).toEqual([2, 2, 2, 2]);
    for (let q = 0; q < 4; q++) {
      const [a, b] = MOUNT_HOLES.filter(([x, y]) => quarterOf(x, y) === q);
      expect(Math.hypot(a[0] - b[0], a[1] - b[1])).toBeGreaterThan(50);
    }
  });

  it('has 32 centring rings that take a 19 mm coin', () => {
    const inner = [...svg.matchAll(/<circle class="ring-inner"[^>]*>/g)].map((m) => attrs(m[0]));
    expect(inner).toHaveLength(32);
    for (const r of inner) expect(2 * Number(r.r)).toBeCloseTo(RING_INNER, 6);
    expect(RING_INNER).toBeGreaterThan(19);
  });

  it('cut lines only (no fills a cutter would engrave)', () => {
    expect(svg).not.toMatch(/<(rect|circle)[^>]*fill="(?!none)/);
  });
});

describe('hardware/spacer.svg: the sheet that carries the tiles round the sensors', () => {
  const svg = read('spacer.svg');
  const carrier = read('carrier.svg');
  const { sx, sy } = mmPerUnit(svg);

  it('is at true scale: a 203.2 mm sheet', () => {
    expect([sx, sy]).toEqual([1, 1]);
    const outline = attrs(/<rect id="spacer-outline"[^>]*>/.exec(svg)![0]);
    expect(Number(outline.width)).toBeCloseTo(BOARD, 6);
    expect(Number(outline.height)).toBeCloseTo(BOARD, 6);
  });

  it("has 32 windows, each the carrier's sensor rectangle at the same place on the board", () => {
    const off = (doc: string, id: string) => {
      const o = attrs(new RegExp(`<rect id="${id}"[^>]*>`).exec(doc)![0]);
      return [Number(o.x), Number(o.y)];
    };
    const [sx0, sy0] = off(svg, 'spacer-outline'),
      [cx0, cy0] = off(carrier, 'carrier-outline');
    expect([...svg.matchAll(/<rect id="window\d+"/g)]).toHaveLength(32);
    for (let sq = 1; sq <= 32; sq++) {
      const w = attrs(new RegExp(`<rect id="window${sq}"[^>]*>`).exec(svg)![0]);
      const c = attrs(new RegExp(`<rect id="sensor${sq}"[^>]*>`).exec(carrier)![0]);
      expect(Number(w.width)).toBeCloseTo(Number(c.width), 6);
      expect(Number(w.height)).toBeCloseTo(Number(c.height), 6);
      expect(Number(w.x) - sx0).toBeCloseTo(Number(c.x) - cx0, 6);
      expect(Number(w.y) - sy0).toBeCloseTo(Number(c.y) - cy0, 6);
    }
  });

  it('has a hole over every carrier mount hole, wide enough for the screw head', () => {
    const [sx0, sy0] = [attrs(/<rect id="spacer-outline"[^>]*>/.exec(svg)![0])].map((o) => [Number(o.x), Number(o.y)])[0];
    const holes = [...svg.matchAll(/<circle class="mount"[^>]*>/g)].map((m) => attrs(m[0]));
    expect(holes).toHaveLength(MOUNT_HOLES.length);
    holes.forEach((h, k) => {
      expect(Number(h.cx) - sx0).toBeCloseTo(MOUNT_HOLES[k][0], 6);
      expect(Number(h.cy) - sy0).toBeCloseTo(MOUNT_HOLES[k][1], 6);
    });
    for (const h of holes) expect(2 * Number(h.r)).toBe(SPACER_HOLE_D);
  });
});

describe('hardware/solder-side.svg: the carrier turned over', () => {
  const svg = read('solder-side.svg');
  const [ox, oy] = [attrs(/<rect id="solder-outline"[^>]*>/.exec(svg)![0])].map((o) => [Number(o.x), Number(o.y)])[0];
  const hole = (sq: number, pin: string) => {
    const h = attrs(new RegExp(`<circle id="s${sq}-${pin}"[^>]*>`).exec(svg)![0]);
    return [Number(h.cx) - ox, Number(h.cy) - oy];
  };

  it('is mirrored left to right: square 1 at the top right, each VCC leg right of its GND, OUT left', () => {
    expect(mmPerUnit(svg).sx).toBe(1);
    for (let sq = 1; sq <= 32; sq++) {
      const [cx, cy] = squareCentre(sq);
      const [gx, gy] = hole(sq, 'GND');
      expect(gx).toBeCloseTo(BOARD - cx, 6);
      expect(gy).toBeCloseTo(cy + LEAD_HOLES[1].dy, 6);
      expect(hole(sq, 'VCC')[0]).toBeCloseTo(gx + 2.54, 6);
      expect(hole(sq, 'OUT')[0]).toBeCloseTo(gx - 2.54, 6);
    }
    expect(hole(1, 'GND')[0]).toBeGreaterThan(BOARD / 2);
  });

  it('puts a 5 V and a GND bus along every row of sensors on this side', () => {
    expect([...svg.matchAll(/class="bus-5v"/g)]).toHaveLength(8);
    expect([...svg.matchAll(/class="bus-gnd"/g)]).toHaveLength(8);
  });

  it('shows where the Nano and both muxes sit under the carrier, clear of every standoff', () => {
    expect([...svg.matchAll(/class="under"/g)]).toHaveLength(1 + UNDER.length);
    for (const p of UNDER) {
      expect(p.x).toBeGreaterThanOrEqual(STRIP.x);
      expect(p.y).toBeGreaterThanOrEqual(STRIP.y);
      expect(p.x + p.w).toBeLessThanOrEqual(STRIP.x + STRIP.w);
      expect(p.y + p.h).toBeLessThanOrEqual(STRIP.y + STRIP.h);
    }
    for (const [x, y] of MOUNT_HOLES) {
      const dx = Math.max(STRIP.x - x, 0, x - STRIP.x - STRIP.w),
        dy = Math.max(STRIP.y - y, 0, y - STRIP.y - STRIP.h);
      expect(Math.hypot(dx, dy), `standoff at ${x},${y}`).toBeGreaterThan(STANDOFF_D / 2);
    }
  });
});

describe('drawings are up to date', () => {
  it.each(Object.keys(OUTPUTS))('%s is what hardware/tools/diagrams.ts writes', (file) => {
    expect(read(file)).toBe(OUTPUTS[file]());
  });
});

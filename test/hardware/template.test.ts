// The drawings are at true scale: a printed template whose squares are not
// 25.4 mm puts sensors off-centre (the old one printed 21.2 mm squares), and a
// cutter file in the wrong units cuts the wrong part.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BOARD, HARDWARE_DIR, OUTPUTS, RING_INNER, SCALE_BAR, squareCentre, TEMPLATE } from '../../hardware/tools/diagrams.ts';

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

  it('is in mm, with a 203.2 mm carrier and one sensor pocket per dark square centred under it', () => {
    expect(sx).toBe(1);
    const outline = attrs(/<rect id="carrier-outline"[^>]*>/.exec(svg)![0]);
    expect(Number(outline.width)).toBeCloseTo(BOARD, 6);
    for (let sq = 1; sq <= 32; sq++) {
      const p = attrs(new RegExp(`<rect id="sensor${sq}"[^>]*>`).exec(svg)![0]);
      const [cx, cy] = squareCentre(sq);
      expect(Number(p.x) + Number(p.width) / 2).toBeCloseTo(cx, 6);
      expect(Number(p.y) + Number(p.height) / 2).toBeCloseTo(cy, 6);
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

describe('drawings are up to date', () => {
  it.each(Object.keys(OUTPUTS))('%s is what hardware/tools/diagrams.ts writes', (file) => {
    expect(read(file)).toBe(OUTPUTS[file]());
  });
});

// The home-printable PDFs (hardware/print/) print at true scale: rendered by
// pdftoppm at a known resolution, every page's scale bar measures 100 mm in
// pixels, the page is the paper's size, the tiles cover the drawing and the
// registration marks fall on both pages they join; and the committed files
// are byte for byte what hardware/tools/pdf.ts writes from geometry.ts.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { carrierDrawing, MOUNT_HOLES, solderSideDrawing, spacerDrawing, WINDOW_SIZE } from '../../hardware/tools/geometry.ts';
import { outputs, PAPERS, PRINT_DIR, registrationMarks, SCALE_BAR_HEIGHT, SCALE_BAR_MM, tiles } from '../../hardware/tools/pdf.ts';

/** 10 pixels a millimetre */
const DPI = 254;
const PX_PER_MM = DPI / 25.4;

const tmp = mkdtempSync(join(tmpdir(), 'crownhead-print-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Page `page` of a PDF as an 8-bit grey image, rendered by pdftoppm. */
function render(file: string, page: number): { w: number; h: number; px: Uint8Array } {
  const prefix = join(tmp, `${file.replace(/\W/g, '_')}-${page}`);
  const r = spawnSync(
    'pdftoppm',
    ['-r', String(DPI), '-gray', '-f', String(page), '-l', String(page), '-singlefile', join(PRINT_DIR, file), prefix],
    {
      encoding: 'utf8',
    },
  );
  expect(r.status, `pdftoppm ${file} page ${page}: ${r.stderr}`).toBe(0);
  const buf = readFileSync(`${prefix}.pgm`);
  // P5 <w> <h> <max>, one whitespace, then w*h bytes
  const head = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(buf.subarray(0, 64).toString('latin1'))!;
  expect(head, 'a binary PGM').not.toBeNull();
  const [w, h] = [Number(head[1]), Number(head[2])];
  expect(Number(head[3])).toBe(255);
  return { w, h, px: new Uint8Array(buf.subarray(head[0].length, head[0].length + w * h)) };
}

/**
 * The scale bar, found from the pixels alone: the one block of consecutive rows
 * whose longest dark run is over 50 mm (thin lines are a few rows, the bar is
 * SCALE_BAR_HEIGHT mm); its length is the median of those rows' runs, in mm.
 */
function scaleBar(img: { w: number; h: number; px: Uint8Array }): { mm: number; rows: number; blocks: number } {
  const longest: number[] = [];
  for (let y = 0; y < img.h; y++) {
    let best = 0,
      run = 0;
    for (let x = 0; x < img.w; x++) {
      run = img.px[y * img.w + x] < 128 ? run + 1 : 0;
      if (run > best) best = run;
    }
    longest.push(best);
  }
  const blocks: number[][] = [];
  let cur: number[] = [];
  for (let y = 0; y <= img.h; y++) {
    if (y < img.h && longest[y] > 50 * PX_PER_MM) cur.push(longest[y]);
    else if (cur.length) (blocks.push(cur), (cur = []));
  }
  const thick = blocks.filter((b) => b.length >= (SCALE_BAR_HEIGHT / 2) * PX_PER_MM);
  const bar = thick[0] ?? [];
  const sorted = [...bar].sort((a, b) => a - b);
  return { mm: (sorted[Math.floor(sorted.length / 2)] ?? 0) / PX_PER_MM, rows: bar.length, blocks: thick.length };
}

const FILES = Object.keys(outputs());
const pageCount = (file: string) =>
  Number(/\/Type \/Pages \/Kids \[[^\]]*\] \/Count (\d+)/.exec(readFileSync(join(PRINT_DIR, file), 'latin1'))![1]);

describe('hardware/print/*.pdf print at true scale', () => {
  it('there is a carrier and a spacer PDF for A4 and for Letter', () => {
    expect(FILES.sort()).toEqual(['carrier-a4.pdf', 'carrier-letter.pdf', 'spacer-a4.pdf', 'spacer-letter.pdf']);
  });

  it.each(FILES)('%s: every page rendered by pdftoppm at 254 dpi is the paper size and its scale bar measures 100.0 ± 0.5 mm', (file) => {
    const paper = PAPERS.find((p) => file.includes(p.name.toLowerCase()))!;
    const n = pageCount(file);
    expect(n).toBeGreaterThanOrEqual(2);
    for (let page = 1; page <= n; page++) {
      const img = render(file, page);
      expect(Math.abs(img.w / PX_PER_MM - paper.w), `page ${page} width`).toBeLessThan(0.5);
      expect(Math.abs(img.h / PX_PER_MM - paper.h), `page ${page} height`).toBeLessThan(0.5);
      const bar = scaleBar(img);
      expect(bar.blocks, `page ${page}: one scale bar`).toBe(1);
      expect(Math.abs(bar.mm - SCALE_BAR_MM), `page ${page}: bar ${bar.mm} mm`).toBeLessThanOrEqual(0.5);
      expect(Math.abs(bar.rows / PX_PER_MM - SCALE_BAR_HEIGHT)).toBeLessThan(0.3);
    }
  });
});

describe('tiling', () => {
  const drawings = [carrierDrawing(), solderSideDrawing(), spacerDrawing()];

  it.each(PAPERS.map((p) => p.name))('%s: the pages cover every drawing, and every registration mark is on both pages it joins', (name) => {
    const paper = PAPERS.find((p) => p.name === name)!;
    for (const d of drawings) {
      const { tiles: ts, cols, rows } = tiles(d, paper);
      expect(ts).toHaveLength(cols * rows);
      expect(cols * rows).toBeGreaterThan(1); // a 203.2 mm board does not fit one page's window: the tiling is real
      const last = ts[ts.length - 1];
      expect(last.x + last.w).toBeGreaterThanOrEqual(d.w);
      expect(last.y + last.h).toBeGreaterThanOrEqual(d.h);
      const marks = registrationMarks(d, paper);
      expect(marks.length).toBeGreaterThanOrEqual(3 * (cols - 1 + rows - 1));
      for (const [x, y] of marks) {
        // the whole mark (a 5 mm cross) on at least two pages
        const on = ts.filter((t) => x - 5 >= t.x && x + 5 <= t.x + t.w && y - 5 >= t.y && y + 5 <= t.y + t.h);
        expect(on.length, `mark at ${x},${y} in ${d.name}`).toBeGreaterThanOrEqual(2);
      }
    }
  });

  it("the spacer PDF draws geometry.ts's 32 windows and the mount holes on every page", () => {
    for (const file of ['spacer-a4.pdf', 'spacer-letter.pdf']) {
      const text = readFileSync(join(PRINT_DIR, file), 'latin1');
      const n = pageCount(file);
      const windows = text.split(` ${WINDOW_SIZE.map((v) => String(Math.round(v * 1000) / 1000)).join(' ')} re S`).length - 1;
      expect(windows).toBe(32 * n);
      // each hole a closed Bézier circle: 4 curves, one "c S" each
      expect(text.split(' c S').length - 1).toBeGreaterThanOrEqual(MOUNT_HOLES.length * n);
    }
  });
});

describe('hardware/print/ is generated', () => {
  it.each(FILES)('%s is byte for byte what `node bin/run-ts.js hardware/tools/pdf.ts` writes', (file) => {
    const committed = readFileSync(join(PRINT_DIR, file));
    const fresh = outputs()[file]();
    expect(committed.length).toBe(fresh.length);
    expect(committed.equals(fresh)).toBe(true);
    expect(committed.subarray(0, 8).toString('latin1')).toBe('%PDF-1.4');
    expect(committed.toString('latin1')).toContain('GENERATED by hardware/tools/pdf.ts');
  });
});

// The hardware README's numbers are the physics script's numbers: every
// generated table and quoted figure, the emulator's field table, and the
// budget from bom.csv. Plus sanity checks of the field model itself.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as P from '../../hardware/tools/physics.ts';
import { README_PATH, TOP_README_PATH, renderReadme, blocks, allFigures, hex3 } from '../../hardware/tools/readme.ts';
import { readBom, totals, parseCsvLine, BOM_COLUMNS, BOM_PATH } from '../../hardware/tools/bom.ts';
import { MOUNT_HOLES } from '../../hardware/tools/geometry.ts';
import { HARDWARE_DIR } from '../../hardware/tools/diagrams.ts';

const readme = readFileSync(README_PATH, 'utf8');

describe('hardware/README.md is what hardware/tools compute', () => {
  it('every generated table and inline figure matches (run `node bin/run-ts.js hardware/tools/readme.ts` if not)', () => {
    expect(renderReadme(readme)).toBe(readme);
  });

  it('every generated block is present once, and every figure is quoted somewhere', () => {
    for (const name of Object.keys(blocks())) {
      expect(readme.split(`<!-- physics:${name} -->`).length - 1, name).toBe(1);
    }
    for (const name of [
      'manCounts',
      'king',
      'ratio',
      'kingOffMargin',
      'flippedBelow',
      'flippedSteps',
      'tileMin',
      'tileMax',
      'cloneLow',
      'cloneHigh',
      'genuineLow',
      'genuineHigh',
      'emptyLowHex',
      'emptyHighHex',
    ]) {
      expect(readme, name).toContain(`<!--f:${name}-->${allFigures()[name]}<!--/f-->`);
    }
  });

  it('an unknown block or figure name is an error naming it', () => {
    expect(() => renderReadme('<!-- physics:nosuch -->\n<!-- /physics:nosuch -->')).toThrow(/unknown generated block "nosuch"/);
    expect(() => renderReadme('<!--f:nosuch-->1<!--/f-->')).toThrow(/unknown figure "nosuch"/);
  });

  it("the emulator's field table (src/sensors/hall-table.ts) is what the script writes", () => {
    expect(readFileSync(P.HALL_TABLE_PATH, 'utf8')).toBe(P.hallTableModule());
  });
});

describe('field model', () => {
  const m = P.magnet('12x1-N35');

  it('the current-sheet integration equals the closed form on the axis', () => {
    for (const mag of P.MAGNETS) for (const z of [2, 3.8, 6.8, 10]) expect(P.discBz(mag, 0, z)).toBeCloseTo(P.axialBz(mag, z), 3);
  });

  it('far away it is a dipole: Bz ≈ −µ0·m/(4π·ρ³) in the magnet plane', () => {
    const a = m.diameter / 2,
      L = m.thickness;
    const moment = (m.br / (4e-7 * Math.PI)) * Math.PI * (a * 1e-3) ** 2 * (L * 1e-3); // A·m²
    const rho = 200;
    const dipole = ((-1e-7 * moment) / (rho * 1e-3) ** 3) * 1e4; // gauss
    expect(P.discBz(m, rho, -L / 2) / dipole).toBeCloseTo(1, 2);
  });

  it('reproduces the figures the issue checked by hand (z = 4 mm): 12×1 N35 man 509 G, king 751 G', () => {
    const g = { ...P.GEOMETRY, tile: 4 - P.GEOMETRY.gap - P.GEOMETRY.element };
    expect(Math.round(P.pieceField(m, { coins: 1 }, g))).toBe(509);
    expect(Math.round(P.pieceField(m, { coins: 2 }, g))).toBe(751);
    expect(Math.round(P.pieceField(P.magnet('8x1.5-N42'), { coins: 1 }, g))).toBe(661);
  });

  it('the elliptic integrals are right (K(0) = E(0) = π/2; K(0.5), E(0.5) tabulated)', () => {
    expect(P.ellipticKE(0)[0]).toBeCloseTo(Math.PI / 2, 12);
    expect(P.ellipticKE(0)[1]).toBeCloseTo(Math.PI / 2, 12);
    expect(P.ellipticKE(0.5)[0]).toBeCloseTo(1.8540746773, 9);
    expect(P.ellipticKE(0.5)[1]).toBeCloseTo(1.350643881, 9);
  });
});

describe('the chosen design separates what must be told apart', () => {
  const m = P.magnet(P.CHOSEN.magnet);
  const sn = P.sensor(P.CHOSEN.sensor);
  const f = P.figures(m);
  const step = P.rise(sn, f.man);

  it('the README names the magnet the script picks', () => {
    expect(P.chooseMagnet().key).toBe(P.CHOSEN.magnet);
    expect(readme).toContain('**12 × 1 mm N35**');
  });

  it('a king 3 mm off-centre reads above a centred man (the old 8×1.5 N42 did not)', () => {
    expect(P.rise(sn, f.kingOff) - step).toBeGreaterThanOrEqual(P.MIN_MARGIN);
    const old = P.figures(P.magnet('8x1.5-N42'));
    expect(P.rise(sn, old.kingOff)).toBeLessThan(P.rise(sn, old.man));
  });

  it('a worst-case SS49E tells a king from a man under its guaranteed 4.0 V ceiling at the design height', () => {
    expect(sn.outMax).toBe(4000);
    // a centred king passes the ceiling on that part (4.13 V) and clips there, still 65 counts above its man…
    expect(P.worstPartMv(sn, f.king)).toBeGreaterThan(sn.outMax);
    expect((sn.outMax - P.worstPartMv(sn, f.man)) / ((1000 * 5) / 1024)).toBeGreaterThan(60);
    // …and a king knocked 3 mm off-centre stays under it
    expect(P.worstPartMv(sn, f.kingOff)).toBeLessThanOrEqual(sn.outMax);
    expect(P.worstPartKingOk(sn, f)).toBe(true);
  });

  it('an upside-down coin reads more than half a one-coin step below empty, centred and 3 mm off', () => {
    expect(-P.rise(sn, f.flipped) / step).toBeGreaterThan(0.5);
    expect(-P.rise(sn, P.pieceField(m, { coins: 1, flipped: true, off: P.OFF })) / step).toBeGreaterThan(0.5);
  });

  it('crosstalk stays a few counts: start position < 5, worst case < 10', () => {
    const c = P.crosstalkSummary(m);
    const counts = (b: number) => Math.abs((b * sn.sens) / P.MV_PER_COUNT);
    expect(c.diagonal).toBeLessThan(0); // the returning field lowers a neighbour's reading
    expect(counts(c.startMax)).toBeLessThan(5);
    expect(counts(c.worst)).toBeLessThan(10);
  });

  it('the tile range contains the design tile and is what the table calls fine', () => {
    const [lo, hi] = P.tileRange();
    expect(lo).toBeLessThanOrEqual(P.GEOMETRY.tile);
    expect(hi).toBeGreaterThanOrEqual(P.GEOMETRY.tile);
    expect(P.tileTable()).toMatch(/\*\*2\.5 mm[^\n]*\| fine \(a worst-case part clips a centred king, still clear of a man\) \|/);
    expect(P.tileTable()).toMatch(/\| 3 mm [^\n]*\| fine \|/);
  });
});

describe('bill of materials', () => {
  const bom = readBom();

  it('lists what a build needs (cable, buzzer resistor, headers, spacer sheet, fixings, tools)', () => {
    const parts = bom.map((l) => l.part.toLowerCase()).join('\n');
    for (const p of ['usb cable', 'resistor 100 ω', 'header', 'spacer sheet', 'fixings', 'drill', 'magnet 12 × 1 mm n35'])
      expect(parts).toContain(p);
  });

  it('has one fixing per mount hole: the carrier, the spacer and the BOM agree', () => {
    const fixings = bom.find((l) => l.part.toLowerCase().startsWith('carrier fixings'))!;
    expect(fixings.quantity).toBe(MOUNT_HOLES.length);
    for (const f of ['carrier.svg', 'spacer.svg', 'solder-side.svg'])
      expect(readFileSync(`${HARDWARE_DIR}${f}`, 'utf8').match(/<circle class="mount"/g), f).toHaveLength(fixings.quantity);
    expect(fixings.quantity).toBeGreaterThanOrEqual(8); // two per 101.6 mm quarter
  });

  it("prices are ranges of what you buy: packs at least the quantity used, low ≤ high, the sensors' two routes at their market prices", () => {
    for (const l of bom) {
      expect(l.buy, l.part).toBeGreaterThanOrEqual(l.quantity);
      expect(l.high, l.part).toBeGreaterThanOrEqual(l.low);
    }
    const sensors = bom.filter((l) => l.part.startsWith('Linear Hall-effect sensor'));
    expect(sensors.map((l) => [l.route, l.quantity, l.low, l.high])).toEqual([
      ['clone', 32, 0.04, 0.08],
      ['genuine', 32, 1, 1.6],
    ]);
    // a polarity-coded set: 24 coins + 4 spare crowns of each colour, and their magnets
    expect(bom.find((l) => l.part.startsWith('Neodymium disc magnet'))!.quantity).toBe(36);
    expect(bom.find((l) => l.part.startsWith('Extra coins'))!.quantity).toBe(8);
    expect(bom.some((l) => l.part === 'Bus wire')).toBe(true);
  });

  it("the READMEs' cost figures are the BOM's sums for each route (own piecepack, and everything new)", () => {
    // summed here from the raw CSV, not through bom.ts's totals
    const rows = readFileSync(BOM_PATH, 'utf8')
      .split('\n')
      .slice(1)
      .filter((l) => l.trim())
      .map(parseCsvLine)
      .map((f) => Object.fromEntries(BOM_COLUMNS.map((c, i) => [c, f[i]])));
    const sumOf = (route: string, groups: string[], col: 'unit_low_usd' | 'unit_high_usd') =>
      (
        rows
          .filter((r) => groups.includes(r.group) && (r.route === '' || r.route === route))
          .reduce((s, r) => s + Math.round(Number(r.buy) * Number(r[col]) * 100), 0) / 100
      ).toFixed(2);
    const top = readFileSync(TOP_README_PATH, 'utf8');
    for (const route of ['clone', 'genuine']) {
      const own = [sumOf(route, ['electronics', 'build'], 'unit_low_usd'), sumOf(route, ['electronics', 'build'], 'unit_high_usd')];
      const all = ['electronics', 'build', 'piecepack'];
      const fresh = [sumOf(route, all, 'unit_low_usd'), sumOf(route, all, 'unit_high_usd')];
      expect(readme).toContain(`<!--f:${route}Low-->${own[0]}<!--/f-->–<!--f:${route}High-->${own[1]}<!--/f--> USD`);
      expect(readme).toContain(`<!--f:${route}NewLow-->${fresh[0]}<!--/f-->–<!--f:${route}NewHigh-->${fresh[1]}<!--/f-->`);
      expect(readme).toContain(`**${own[0]}–${own[1]} USD**`); // the budget table
      expect(top).toContain(`<!--f:${route}Low-->${own[0]}<!--/f-->–<!--f:${route}High-->${own[1]}<!--/f--> USD`);
      expect(totals(route as 'clone' | 'genuine', bom).withOwnPiecepack).toEqual({ low: Number(own[0]), high: Number(own[1]) });
    }
    expect(renderReadme(top)).toBe(top);
  });

  it('Assembly step 6 gives the empty limits in the hex the F line shows', () => {
    expect([hex3(460), hex3(565), hex3(512)]).toEqual(['1CC', '235', '200']);
    const f = allFigures();
    expect(parseInt(f.emptyLowHex, 16)).toBe(Number(f.emptyLow));
    expect(parseInt(f.emptyHighHex, 16)).toBe(Number(f.emptyHigh));
    expect(readme).toMatch(/96 hex digits: 32 groups of 3, square 1 first/);
    // the decimal live grid first, the hex as the fallback
    expect(readme).toMatch(/6\. \*\*Check before the tiles go on\.\*\* [^]*`npx crownhead doctor --live`[^]*\*Without Crownhead\*/);
    expect(Number(f.manDec) - Number(f.emptyDec)).toBe(Number(f.manRiseDec));
    expect(readme).not.toMatch(/every square ≈ 460–565/);
  });

  it('CSV fields may be quoted; a malformed file is an error naming the line', () => {
    expect(parseCsvLine('a,"b, c",d')).toEqual(['a', 'b, c', 'd']);
    expect(parseCsvLine('"say ""hi""",')).toEqual(['say "hi"', '']);
    const head = BOM_COLUMNS.join(',');
    expect(() => readBom(`${head}\nx,two,2,y,1,2,electronics,,n`)).toThrow(/line 2: bad quantity two/);
    expect(() => readBom(`${head}\nx,1,1,y,1,2,snacks,,n`)).toThrow(/line 2: bad group snacks/);
    expect(() => readBom(`${head}\nx,3,2,y,1,2,build,,n`)).toThrow(/line 2: buy 2 must be a whole number ≥ the quantity 3/);
    expect(() => readBom(`${head}\nx,1,1,y,2,1,build,,n`)).toThrow(/line 2: high price 1 below the low 2/);
  });
});

describe('the polarity-coded board (Black S down, White N down)', () => {
  const rows = P.polarityRows();
  const by = (prefix: string) => rows.find((r) => r.what.startsWith(prefix))!;

  it('a White piece reads as far below empty as the same Black piece reads above it (the sensor is linear through its zero)', () => {
    expect(by('a White man (').counts).toBeCloseTo(-by('a Black man (').counts, 6);
    expect(by('a White king (').counts).toBeCloseTo(-by('a Black king (').counts, 6);
  });

  it("a crown of the opponent's colour under the man reads on the crown's side, about half a step: below any man of that colour, even 3 mm off-centre", () => {
    const mixed = by('a White king crowned with a Black coin (under');
    expect(mixed.steps).toBeGreaterThan(0.4);
    expect(mixed.steps).toBeLessThan(0.6);
    expect(mixed.steps).toBeLessThan(by('a Black man 3 mm').steps - 0.3);
    // …and a flipped coin of the other colour reads about as far on the same side: the game must decide.
    expect(Math.abs(by('a White coin upside down').steps - mixed.steps)).toBeLessThan(0.15);
  });

  it("coins of opposite colours repel in a stack, many times a coin's weight; the worst parts clip a White king only slightly", () => {
    const f = P.stackForce();
    expect(f.newtons).toBeGreaterThan(20 * f.coinWeight);
    const r = P.polarityRange();
    expect(r.low).toBeLessThan(r.outMin); // clipped…
    // …by under 30 counts: the guaranteed floor is 1.0 V (as the ceiling is VCC − 1.0 V), 129 mV (26 counts) above a White king on those parts
    expect((r.outMin - r.low) / ((1000 * 5) / 1024)).toBeLessThan(30);
    expect((r.high - r.outMax) / ((1000 * 5) / 1024)).toBeLessThan(30); // a Black king clips at 4.0 V by under 30 counts
  });

  it('crosstalk between neighbours of opposite colours stays a few counts', () => {
    const x = P.polarityCrosstalk();
    expect(Math.abs(x.start)).toBeLessThan(P.crosstalkSummary(P.magnet('12x1-N35')).worst * -1 + 1e-9);
    expect(x.worst).toBeGreaterThan(0);
  });
});

// The bill of materials (hardware/bom.csv) as data, and the budget table of
// hardware/README.md computed from it, as price ranges (low / high USD, what
// you pay for the packs you must buy) for the two routes: clone "49E"
// sensors, or genuine SS49E / DRV5055A3. Per route: electronics only, the
// board with a piecepack you already own, everything new. Tools are listed,
// priced, and kept out of the totals.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const BOM_PATH = fileURLToPath(new URL('../bom.csv', import.meta.url));

export type Group = 'electronics' | 'build' | 'piecepack' | 'tools';
export type Route = 'clone' | 'genuine';
export const ROUTES: Route[] = ['clone', 'genuine'];
export interface BomLine {
  part: string;
  /** how many the build uses */
  quantity: number;
  /** how many you buy (a pack: at least `quantity`) */
  buy: number;
  example: string;
  /** unit price range, USD */
  low: number;
  high: number;
  group: Group;
  /** '' for every build; 'clone' / 'genuine' for the two sensor routes */
  route: '' | Route;
  notes: string;
}

/** One CSV record per line; fields may be double-quoted (with "" for a quote). */
export function parseCsvLine(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let v = '';
      i++;
      for (;;) {
        if (i >= line.length) throw new Error(`unterminated quote in: ${line}`);
        if (line[i] === '"' && line[i + 1] === '"') ((v += '"'), (i += 2));
        else if (line[i] === '"') break;
        else v += line[i++];
      }
      i++;
      out.push(v);
      if (i < line.length && line[i] !== ',') throw new Error(`text after a quoted field in: ${line}`);
      i++;
    } else {
      const j = line.indexOf(',', i);
      const end = j < 0 ? line.length : j;
      out.push(line.slice(i, end));
      i = end + 1;
    }
  }
  return out;
}

export const BOM_COLUMNS = ['part', 'quantity', 'buy', 'example_part_number', 'unit_low_usd', 'unit_high_usd', 'group', 'route', 'notes'];

export function readBom(text = readFileSync(BOM_PATH, 'utf8')): BomLine[] {
  const [head, ...rows] = text.split('\n').filter((l) => l.trim() !== '');
  const cols = parseCsvLine(head);
  const want = BOM_COLUMNS;
  if (cols.join() !== want.join()) throw new Error(`bom.csv columns are ${cols.join()}, expected ${want.join()}`);
  return rows.map((r, k) => {
    const f = parseCsvLine(r);
    const where = `bom.csv line ${k + 2}`;
    if (f.length !== want.length) throw new Error(`${where}: ${f.length} fields, expected ${want.length}`);
    const [quantity, buy, low, high] = [Number(f[1]), Number(f[2]), Number(f[4]), Number(f[5])];
    if (!Number.isInteger(quantity) || quantity < 1) throw new Error(`${where}: bad quantity ${f[1]}`);
    if (!Number.isInteger(buy) || buy < quantity)
      throw new Error(`${where}: buy ${f[2]} must be a whole number ≥ the quantity ${quantity}`);
    if (!Number.isFinite(low) || low < 0) throw new Error(`${where}: bad price ${f[4]}`);
    if (!Number.isFinite(high) || high < low) throw new Error(`${where}: high price ${f[5]} below the low ${f[4]}`);
    if (!['electronics', 'build', 'piecepack', 'tools'].includes(f[6])) throw new Error(`${where}: bad group ${f[6]}`);
    if (!['', 'clone', 'genuine'].includes(f[7])) throw new Error(`${where}: bad route ${f[7]}`);
    return { part: f[0], quantity, buy, example: f[3], low, high, group: f[6] as Group, route: f[7] as BomLine['route'], notes: f[8] };
  });
}

export interface Range {
  low: number;
  high: number;
}
export interface Totals {
  electronics: Range;
  withOwnPiecepack: Range;
  everythingNew: Range;
  tools: Range;
}

const cents = (x: number) => Math.round(x * 100) / 100;
/** What the lines cost: each line's packs at its low and its high unit price. */
export function sum(lines: BomLine[]): Range {
  return {
    low: cents(lines.reduce((s, l) => s + cents(l.buy * l.low), 0)),
    high: cents(lines.reduce((s, l) => s + cents(l.buy * l.high), 0)),
  };
}

export function totals(route: Route, bom: BomLine[] = readBom()): Totals {
  const pick = (groups: Group[]) => bom.filter((l) => groups.includes(l.group) && (l.route === '' || l.route === route));
  return {
    electronics: sum(pick(['electronics'])),
    withOwnPiecepack: sum(pick(['electronics', 'build'])),
    everythingNew: sum(pick(['electronics', 'build', 'piecepack'])),
    tools: sum(pick(['tools'])),
  };
}

/** "35.80–57.95 USD" */
export const usdRange = (r: Range) => `${r.low.toFixed(2)}–${r.high.toFixed(2)} USD`;

/** The README's budget table. */
export function budgetTable(bom: BomLine[] = readBom()): string {
  const [c, g] = ROUTES.map((r) => totals(r, bom));
  return [
    '| build | clone "49E" sensors | genuine SS49E or DRV5055A3 |',
    '| --- | --- | --- |',
    `| electronics only (clone Nano, sensors, muxes, magnets, passives, perfboard, wire, USB cable) | ${usdRange(c.electronics)} | ${usdRange(g.electronics)} |`,
    `| the whole board, with a piecepack you already own | **${usdRange(c.withOwnPiecepack)}** | **${usdRange(g.withOwnPiecepack)}** |`,
    `| everything new (a new piecepack too) | ${usdRange(c.everythingNew)} | ${usdRange(g.everythingNew)} |`,
    `| tools, if you have none (not in the totals) | ${usdRange(c.tools)} | ${usdRange(g.tools)} |`,
  ].join('\n');
}

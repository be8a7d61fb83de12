// The bill of materials (hardware/bom.csv) as data, and the budget table of
// hardware/README.md computed from it: electronics only, a board with a
// piecepack you already own, and everything bought new (genuine Arduino).
// Tools are listed, priced, and kept out of the totals.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const BOM_PATH = fileURLToPath(new URL('../bom.csv', import.meta.url));

export type Group = 'electronics' | 'build' | 'piecepack' | 'tools';
export interface BomLine {
  part: string;
  quantity: number;
  example: string;
  unit: number;
  group: Group;
  /** '' for every build; 'clone' / 'genuine' for the two Arduino choices */
  variant: '' | 'clone' | 'genuine';
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

export function readBom(text = readFileSync(BOM_PATH, 'utf8')): BomLine[] {
  const [head, ...rows] = text.split('\n').filter((l) => l.trim() !== '');
  const cols = parseCsvLine(head);
  const want = ['part', 'quantity', 'example_part_number', 'approx_unit_price_usd', 'group', 'variant', 'notes'];
  if (cols.join() !== want.join()) throw new Error(`bom.csv columns are ${cols.join()}, expected ${want.join()}`);
  return rows.map((r, k) => {
    const f = parseCsvLine(r);
    if (f.length !== want.length) throw new Error(`bom.csv line ${k + 2}: ${f.length} fields, expected ${want.length}`);
    const quantity = Number(f[1]),
      unit = Number(f[3]);
    if (!Number.isInteger(quantity) || quantity < 1) throw new Error(`bom.csv line ${k + 2}: bad quantity ${f[1]}`);
    if (!Number.isFinite(unit) || unit < 0) throw new Error(`bom.csv line ${k + 2}: bad price ${f[3]}`);
    if (!['electronics', 'build', 'piecepack', 'tools'].includes(f[4])) throw new Error(`bom.csv line ${k + 2}: bad group ${f[4]}`);
    if (!['', 'clone', 'genuine'].includes(f[5])) throw new Error(`bom.csv line ${k + 2}: bad variant ${f[5]}`);
    return { part: f[0], quantity, example: f[2], unit, group: f[4] as Group, variant: f[5] as BomLine['variant'], notes: f[6] };
  });
}

export interface Totals {
  electronics: number;
  withOwnPiecepack: number;
  everythingNew: number;
  tools: number;
}

const cost = (l: BomLine) => Math.round(l.quantity * l.unit * 100) / 100;
const sum = (ls: BomLine[]) => Math.round(ls.reduce((s, l) => s + cost(l), 0) * 100) / 100;

export function totals(bom: BomLine[] = readBom()): Totals {
  const pick = (variant: 'clone' | 'genuine', groups: Group[]) =>
    bom.filter((l) => groups.includes(l.group) && (l.variant === '' || l.variant === variant));
  return {
    electronics: sum(pick('clone', ['electronics'])),
    withOwnPiecepack: sum(pick('clone', ['electronics', 'build'])),
    everythingNew: sum(pick('genuine', ['electronics', 'build', 'piecepack'])),
    tools: sum(pick('clone', ['tools'])),
  };
}

const usd = (x: number) => `${x.toFixed(2)} USD`;

/** The README's budget table. */
export function budgetTable(bom: BomLine[] = readBom()): string {
  const t = totals(bom);
  return [
    '| build | total |',
    '| --- | --- |',
    `| electronics only (clone Nano, sensors, muxes, magnets, passives, carrier, wire, USB cable) | ${usd(t.electronics)} |`,
    `| the whole board, with a piecepack you already own (clone Nano) | **${usd(t.withOwnPiecepack)}** |`,
    `| everything new (genuine Nano, new piecepack) | ${usd(t.everythingNew)} |`,
    `| tools, if you have none (not in the totals) | ${usd(t.tools)} |`,
  ].join('\n');
}

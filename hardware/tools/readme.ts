// Regenerates the computed parts of the hardware docs:
//   hardware/README.md   every <!-- physics:NAME --> … <!-- /physics:NAME --> block (the magnet
//                        build guide's from build-guide.ts) and
//                        every inline figure <!--f:NAME-->…<!--/f--> (physics.ts keyFigures,
//                        the BOM's totals, the spacer's thickness and the hole count of geometry.ts)
//   README.md            its inline figures (the BOM's route totals)
//   src/sensors/hall-table.ts   the field table of the emulated board's sensor model
// Run: node bin/run-ts.js hardware/tools/readme.ts
// test/hardware/physics.test.ts fails when either is out of date.

import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  blocks as physicsBlocks,
  hallTableModule,
  keyFigures,
  HALL_TABLE_PATH,
  MV_PER_COUNT,
  reading,
  rise,
  sensor,
  CHOSEN,
  figures,
  magnet,
} from './physics.ts';
import { budgetTable, ROUTES, totals } from './bom.ts';
import { builderTable, guideFigures } from './build-guide.ts';
import { MOUNT_HOLES, SPACER_THICKNESS } from './geometry.ts';

export const README_PATH = fileURLToPath(new URL('../README.md', import.meta.url));
/** The project's README quotes the BOM's route totals in the same inline-figure form. */
export const TOP_README_PATH = fileURLToPath(new URL('../../README.md', import.meta.url));

export function blocks(): Record<string, string> {
  return { ...physicsBlocks(), budget: budgetTable(), builders: builderTable() };
}

/** The physics figures and the BOM totals quoted in the README's prose. */
export function allFigures(): Record<string, string> {
  const money: Record<string, string> = {};
  for (const r of ROUTES) {
    const t = totals(r);
    money[`${r}Low`] = t.withOwnPiecepack.low.toFixed(2);
    money[`${r}High`] = t.withOwnPiecepack.high.toFixed(2);
    money[`${r}NewLow`] = t.everythingNew.low.toFixed(2);
    money[`${r}NewHigh`] = t.everythingNew.high.toFixed(2);
  }
  return {
    ...keyFigures(),
    ...guideFigures(),
    ...money,
    ...lineFigures(),
    spacerMm: SPACER_THICKNESS.toFixed(2),
    holeCount: String(MOUNT_HOLES.length),
  };
}

/** A reading as the F line shows it: three upper-case hex digits. */
export const hex3 = (counts: number) => Math.round(counts).toString(16).toUpperCase().padStart(3, '0');

/** The F line's empty-square limits (the SS49E's zero level 2.25–2.75 V), typical empty and one-coin levels, in hex and decimal. */
export function lineFigures(): Record<string, string> {
  const sn = sensor('SS49E');
  const lo = Math.floor(sn.qMin / MV_PER_COUNT),
    hi = Math.ceil(sn.qMax / MV_PER_COUNT);
  const empty = reading(sensor(CHOSEN.sensor), 0);
  const man = empty + rise(sensor(CHOSEN.sensor), figures(magnet(CHOSEN.magnet)).man);
  return {
    emptyLowHex: hex3(lo),
    emptyHighHex: hex3(hi),
    emptyLow: String(lo),
    emptyHigh: String(hi),
    emptyHex: hex3(empty),
    manHex: hex3(man),
    manRiseHex: hex3(man - empty).replace(/^0+/, ''),
    emptyDec: String(Math.round(empty)),
    manDec: String(Math.round(man)),
    manRiseDec: String(Math.round(man) - Math.round(empty)),
  };
}

/** The README with every generated block rewritten; throws on an unknown block name. */
export function renderReadme(text: string, b: Record<string, string> = blocks(), figures: Record<string, string> = allFigures()): string {
  const inline = text.replace(/<!--f:([A-Za-z0-9]+)-->[^<]*<!--\/f-->/g, (_all, name: string) => {
    if (!(name in figures)) throw new Error(`hardware/README.md: unknown figure "${name}"`);
    return `<!--f:${name}-->${figures[name]}<!--/f-->`;
  });
  return inline.replace(
    /(<!-- physics:([a-z]+) -->)[\s\S]*?(<!-- \/physics:\2 -->)/g,
    (_all, open: string, name: string, close: string) => {
      if (!(name in b)) throw new Error(`hardware/README.md: unknown generated block "${name}"`);
      return `${open}\n${b[name]}\n${close}`;
    },
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const before = readFileSync(README_PATH, 'utf8');
  const after = renderReadme(before);
  writeFileSync(README_PATH, after);
  writeFileSync(HALL_TABLE_PATH, hallTableModule());
  const top = readFileSync(TOP_README_PATH, 'utf8');
  writeFileSync(TOP_README_PATH, renderReadme(top));
  console.log(
    `hardware/README.md ${before === after ? 'unchanged' : 'updated'}; README.md ${renderReadme(top) === top ? 'unchanged' : 'updated'}; ${HALL_TABLE_PATH} written`,
  );
}

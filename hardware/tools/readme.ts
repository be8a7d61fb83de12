// Regenerates the computed parts of the hardware docs:
//   hardware/README.md   every <!-- physics:NAME --> … <!-- /physics:NAME --> block (the magnet
//                        build guide's from build-guide.ts) and
//                        every inline figure <!--f:NAME-->…<!--/f--> (physics.ts keyFigures,
//                        the BOM's totals, the spacer's thickness and the hole count of geometry.ts)
//   src/sensors/hall-table.ts   the field table of the emulated board's sensor model
// Run: node bin/run-ts.js hardware/tools/readme.ts
// test/hardware/physics.test.ts fails when either is out of date.

import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { blocks as physicsBlocks, hallTableModule, keyFigures, HALL_TABLE_PATH } from './physics.ts';
import { budgetTable, totals } from './bom.ts';
import { builderTable, guideFigures } from './build-guide.ts';
import { MOUNT_HOLES, SPACER_THICKNESS } from './geometry.ts';

export const README_PATH = fileURLToPath(new URL('../README.md', import.meta.url));

export function blocks(): Record<string, string> {
  return { ...physicsBlocks(), budget: budgetTable(), builders: builderTable() };
}

/** The physics figures and the BOM totals quoted in the README's prose. */
export function allFigures(): Record<string, string> {
  const t = totals();
  return {
    ...keyFigures(),
    ...guideFigures(),
    electronicsUsd: t.electronics.toFixed(2),
    ownUsd: t.withOwnPiecepack.toFixed(2),
    newUsd: t.everythingNew.toFixed(2),
    spacerMm: SPACER_THICKNESS.toFixed(2),
    holeCount: String(MOUNT_HOLES.length),
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
  console.log(`hardware/README.md ${before === after ? 'unchanged' : 'updated'}; ${HALL_TABLE_PATH} written`);
}

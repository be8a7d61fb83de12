// `npm run bench`: runs every bench/*.ts script in turn (each in its own
// process, so one's JIT state and memory do not colour another's) and prints
// their figures. Speed lives here, never in timed tests.

import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const dir = import.meta.dirname;
const only = process.argv.slice(2);
const TOOLS = ['tune.ts', 'selfplay.ts', 'label.ts', 'label-weights.ts', 'search-check.ts', 'yardstick.ts', 'patterns-data.ts', 'sprt.ts'];
const scripts = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
  // tune.ts (`npm run tune` fits the evaluation's weights) and selfplay.ts (the
  // games it fits them to: hours) are tools, not figures: they run only when named;
  // so are label.ts (labels those games' positions with a search's score: an hour;
  // label-weights.ts is its table, not a script), search-check.ts (the search's
  // exactness check for speed work), yardstick.ts (nodes/s beside another
  // engine's: it needs one built from ../shared/opponents) and patterns-data.ts
  // (writes src/engine/eval-patterns-data.ts from its committed source); sprt.ts
  // is bench/engine.ts's sequential test (`--sprt REF`), not a script of its own.
  .filter((f) => (only.length === 0 ? !TOOLS.includes(f) : only.some((o) => f.includes(o))))
  .sort();
let failed = 0;
for (const s of scripts) {
  console.log(`\n== ${s} ==`);
  const r = spawnSync(process.execPath, [join(dir, '../bin/run-ts.js'), join(dir, s)], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    console.log(`(${s} failed with exit ${r.status})`);
  }
}
process.exit(failed ? 1 : 0);

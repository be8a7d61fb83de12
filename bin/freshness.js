// Is the built bundle (dist/node/crownhead.js) at least as new as every file
// under src/? Used by bin/crownhead.js to choose bundle or sources, and by the
// test set-up to rebuild before tests that spawn the command.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..');
export const BUNDLE = join(ROOT, 'dist', 'node', 'crownhead.js');

/** Newest modification time of any file under dir (the sources, ~100 files: a millisecond or two). */
function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

export function bundleIsFresh() {
  if (!existsSync(BUNDLE)) return false;
  const src = join(ROOT, 'src');
  return !existsSync(src) || newest(src) <= statSync(BUNDLE).mtimeMs;
}

#!/usr/bin/env node
// The `crownhead` command. Runs the built bundle (dist/node/crownhead.js, made
// by `npm run build`, which `npm install` runs) when it is there and no file in
// src/ is newer; otherwise runs the TypeScript sources through tsx, so a
// developer's edits take effect at once. CROWNHEAD_FROM_SOURCE=1 forces the
// sources. Either way it is this one process, so signals reach it directly.
import { bundleIsFresh } from './freshness.js';

// Under npm (`npx crownhead …`, or an npm script without `exec`) there is a
// `sh -c` between npm and us that dies on SIGTERM without passing it on; when
// our launcher goes away, we stop as if signalled rather than live on orphaned.
if (process.env.npm_command !== undefined) {
  const launcher = process.ppid;
  setInterval(() => {
    if (process.ppid !== launcher) process.kill(process.pid, 'SIGTERM');
  }, 250).unref();
}

let main;
if (process.env.CROWNHEAD_FROM_SOURCE !== '1' && bundleIsFresh()) {
  ({ main } = await import('../dist/node/crownhead.js'));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));

#!/usr/bin/env node
// The build step (`npm run build`, run by `npm install` through "prepare"):
//   dist/node/crownhead.js (+ chunks)  the whole `crownhead` command as plain JavaScript
//   dist/node/engine-worker.js         the engine's worker_thread
//   dist/page/                         the web page, prebuilt (index.html, assets/, manifest.json)
// so `npm start` and `npx crownhead` run with no tsx and no esbuild at run time.
// npm packages stay external (loaded from node_modules, each only where used:
// dynamic imports become chunks). The bundle sits two folders deep, like the
// sources in src/<stage>/, so their package-relative URLs ('../../package.json',
// '../../hardware/pinmap.json', '../../firmware/build/…') resolve the same.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { register } from 'tsx/esm/api';
import { bundleIsFresh } from './freshness.js';

const root = join(import.meta.dirname, '..');
const dist = join(root, 'dist');
// `--if-stale` (the test set-up): nothing to do when dist/ is newer than every source.
if (process.argv.includes('--if-stale') && bundleIsFresh()) process.exit(0);
const t0 = performance.now();
rmSync(dist, { recursive: true, force: true });

await build({
  // engine-worker: the engine's worker_thread (src/engine-host/client.ts starts ./engine-worker.js beside the bundle).
  entryPoints: { crownhead: join(root, 'src/cli/main.ts'), 'engine-worker': join(root, 'src/engine-host/worker.ts') },
  outdir: join(dist, 'node'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  define: {
    CROWNHEAD_BUNDLED: 'true',
    CROWNHEAD_VERSION: JSON.stringify(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version),
  },
  chunkNames: 'chunk-[hash]',
  sourcemap: 'linked',
  sourcesContent: false,
  legalComments: 'none',
  logLevel: 'warning',
});

// The page: the same bundler the development server runs in memory.
const unregister = register();
const { buildPage } = await import('../src/web/build.ts');
unregister();
const manifest = [];
for (const [path, { body, type }] of await buildPage()) {
  const file = path === '/' ? 'index.html' : path.replace(/^\//, '');
  mkdirSync(dirname(join(dist, 'page', file)), { recursive: true });
  writeFileSync(join(dist, 'page', file), body);
  manifest.push({ path, file, type });
}
writeFileSync(join(dist, 'page', 'manifest.json'), JSON.stringify(manifest, null, 1) + '\n');
console.log(`crownhead: built dist/ in ${Math.round(performance.now() - t0)} ms`);

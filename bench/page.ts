// Page size and build time: bundles the web page the way the service does at
// start and prints its size (HTML + JS + CSS), raw and gzipped.
// Run: node bin/run-ts.js bench/page.ts

import { buildPage, pageSize } from '../src/web/build.ts';

const t0 = performance.now();
const page = await buildPage();
const ms = performance.now() - t0;
const { raw, gzip } = await pageSize(page);
const kb = (n: number) => (n / 1024).toFixed(1);
for (const [path, { body }] of page) console.log(`  ${path.padEnd(18)} ${kb(body.length).padStart(7)} KB`);
console.log(`build: ${ms.toFixed(0)} ms`);
console.log(`page size: ${kb(raw)} KB raw, ${kb(gzip)} KB gzipped`);

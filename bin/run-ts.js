#!/usr/bin/env node
// Runs a TypeScript entry point straight from the checkout (no build step):
// `node bin/run-ts.js path/to/file.ts args…`. tsx strips the types on load.
import { register } from 'tsx/esm/api';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

register();
const [, , entry, ...rest] = process.argv;
if (!entry) {
  console.error('usage: run-ts.js FILE.ts [args…]');
  process.exit(2);
}
process.argv = [process.argv[0], resolve(entry), ...rest];
await import(pathToFileURL(resolve(entry)).href);

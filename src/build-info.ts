// What is running: the package version, and whether it is the built bundle
// (dist/node/, made by bin/build.js, which defines both constants below) or
// the TypeScript sources through tsx.

import { readFileSync } from 'node:fs';

declare const CROWNHEAD_BUNDLED: boolean | undefined;
declare const CROWNHEAD_VERSION: string | undefined;

export const BUNDLED: boolean = typeof CROWNHEAD_BUNDLED === 'boolean' && CROWNHEAD_BUNDLED;

export const VERSION: string =
  typeof CROWNHEAD_VERSION === 'string'
    ? CROWNHEAD_VERSION
    : (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

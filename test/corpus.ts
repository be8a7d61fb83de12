// Where the shared third-party corpus lives (beside the checkout, never edited).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const CORPUS = [resolve(here, '../../shared/corpus'), resolve(here, '../shared/corpus')].find((d) => existsSync(d))!;
if (!CORPUS) throw new Error('shared/corpus not found beside the checkout');

export const corpusFile = (name: string): string => readFileSync(join(CORPUS, name), 'utf8');
export const corpusPdnFiles = (): string[] => readdirSync(CORPUS).filter((f) => f.endsWith('.pdn')).sort();

// Shared by tests and benches. Where the third-party corpus lives:
// data/corpus/ inside the repository (see its README for sources). Tests and
// benches read it only through these exports.
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const CORPUS = resolve(import.meta.dirname, '../../data/corpus');

export const corpusFile = (name: string): string => readFileSync(join(CORPUS, name), 'utf8');
export const corpusPdnFiles = (): string[] =>
  readdirSync(CORPUS)
    .filter((f) => f.endsWith('.pdn'))
    .sort();

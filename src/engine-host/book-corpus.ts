// The opening book from the corpus files on disk (the engine's edge): reads
// data/corpus in the checkout once per process and builds the pure Book
// (src/engine/book.ts) from it.

import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Book, BOOK_FILES } from '../engine/book.ts';

/** data/corpus at the top of the checkout, from src/engine-host/ (sources) or dist/node/ (the bundle). */
export const CORPUS_DIR = resolve(import.meta.dirname, '../../data/corpus');

const built = new Map<string, Book | null>();

/** The book from the corpus (data/corpus in the checkout), built once per process; null when there is no corpus. */
export function bookFromCorpus(dir: string = CORPUS_DIR): Book | null {
  const known = built.get(dir);
  if (known !== undefined) return known;
  let book: Book | null = null;
  if (existsSync(dir)) {
    const files = readdirSync(dir)
      .filter((f) => BOOK_FILES.includes(f))
      .sort();
    if (files.length) book = Book.build(files.map((f) => readFileSync(join(dir, f), 'utf8')));
  }
  built.set(dir, book);
  return book;
}

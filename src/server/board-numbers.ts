// A club's board numbers kept in its games folder (board-numbers.json): each
// board id keeps the number it was first given (the PDN Board tag, "Board N"
// on the pages, a tournament's board N) across restarts, whatever order the
// boards come back in. The hub numbers its stations' boards with it. The file
// is replaced atomically (temp, fsync, rename) before a new number counts.

import * as fs from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { CrownheadError } from '../common/errors.ts';
import { atomicWrite } from '../storage/disk.ts';

const FILE = 'board-numbers.json';
const Numbers = z.object({ v: z.literal(1), boards: z.record(z.string(), z.int().check(z.positive())) });
type Numbers = z.infer<typeof Numbers>;

/** The numbers file cannot be read (not JSON, not ours). */
export class BoardNumbersError extends CrownheadError<'bad-board-numbers'> {
  override readonly name = 'BoardNumbersError';
}

export class BoardNumbers {
  private readonly file: string;
  private data: Numbers;

  constructor(private readonly dir: string) {
    this.file = join(dir, FILE);
    this.data = this.read();
  }

  private read(): Numbers {
    let text: string;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch {
      return { v: 1, boards: {} };
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new BoardNumbersError('bad-board-numbers', `${this.file} is not JSON: move it aside (the boards are then numbered afresh)`);
    }
    const r = z.safeParse(Numbers, json);
    if (!r.success) throw new BoardNumbersError('bad-board-numbers', `${this.file} is not a board-numbers file: move it aside`);
    return r.data;
  }

  /** The board's number, if it has one. */
  get(id: string): number | undefined {
    return Object.hasOwn(this.data.boards, id) ? this.data.boards[id] : undefined;
  }

  /** Every numbered board id, by number. */
  ids(): string[] {
    return Object.entries(this.data.boards)
      .sort(([, a], [, b]) => a - b)
      .map(([id]) => id);
  }

  /** The board's number: the one it was given, else the next free one (kept on disk first). */
  number(id: string): number {
    const had = this.get(id);
    if (had !== undefined) return had;
    const n = Math.max(0, ...Object.values(this.data.boards)) + 1;
    const next: Numbers = { v: 1, boards: { ...this.data.boards, [id]: n } };
    this.write(next);
    this.data = next;
    return n;
  }

  private write(value: Numbers): void {
    fs.mkdirSync(this.dir, { recursive: true });
    atomicWrite(fs, this.dir, this.file, JSON.stringify(value, null, 2) + '\n', 0o644);
  }
}

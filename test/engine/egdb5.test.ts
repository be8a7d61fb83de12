// The 5-piece endgame database without building it (hours of CI): its index,
// one 5-piece slice solved through the same code path as the real build
// (seeded from the 4-piece database, checked against its successors and an
// exhaustive search that knows no database), the compressed format (every
// value read back, damaged files refused), the engine using whichever
// database is there, and `crownhead egdb`'s flags.
import { describe, expect, it } from 'vitest';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Egdb, packEgdb, PackedEgdb, think, WIN_BASE } from '../../src/engine/index.ts';
import { EgdbLayout } from '../../src/engine/egdb-layout.ts';
import { legalMoves, makeFen, parseFen, playMove, type Position } from '../../src/rules/index.ts';
import { mulberry32 } from '../../src/common/prng.ts';
import { TEST_EGDB_DIR } from './egdb-cache.ts';
import { buildPackedEgdb, egdbFile, forgetEgdbs, loadEgdb, loadEndgame, openPackedEgdb } from '../../src/engine-host/egdb-cache.ts';
import { run } from '../cli/run.ts';
import { unwrap } from '../../src/common/result.ts';

/** Packs a database into memory: the file's bytes. */
function packToBuffer(db: Egdb, block?: number): Buffer {
  const parts: [Uint8Array, number][] = [];
  const size = packEgdb(db, (b, at) => parts.push([Uint8Array.from(b), at]), block);
  const buf = Buffer.alloc(size);
  for (const [b, at] of parts) buf.set(b, at);
  return buf;
}
const readerOf =
  (buf: Buffer) =>
  (at: number, length: number): Uint8Array =>
    buf.subarray(at, at + length);

/** Exhaustive search knowing nothing but the rules: does the side to move win within `plies`? */
function winsWithin(p: Position, plies: number): boolean {
  if (plies <= 0) return false;
  for (const m of legalMoves(p)) {
    const c = playMove(p, m);
    if (!(c.turn === 'black' ? c.black : c.white) || losesWithin(c, plies - 1)) return true;
  }
  return false;
}
/** …and does the side to move lose within `plies` (it has no move now, or every move leads to a win within plies − 1)? */
function losesWithin(p: Position, plies: number): boolean {
  const moves = legalMoves(p);
  if (moves.length === 0) return true;
  if (plies <= 0) return false;
  return moves.every((m) => winsWithin(playMove(p, m), plies - 1));
}

describe('the 5-piece layout', () => {
  const five = new EgdbLayout(5),
    four = new EgdbLayout(4);

  it('begins with the 4-piece layout, index for index, and gives every 5-piece position its own index', () => {
    expect(five.size).toBe(374_220_600);
    expect(five.slices.slice(0, four.slices.length)).toEqual(four.slices);
    expect(five.slices).toHaveLength(85);
    const rng = mulberry32(5);
    const seen = new Map<number, string>();
    const sq = (taken: Set<number>, lo: number, hi: number): number => {
      for (;;) {
        const s = lo + Math.floor(rng() * (hi - lo + 1));
        if (!taken.has(s)) return (taken.add(s), s);
      }
    };
    for (let n = 0; n < 20_000; n++) {
      const taken = new Set<number>();
      let black = 0,
        white = 0,
        kings = 0;
      const nb = 1 + Math.floor(rng() * 4);
      for (let k = 0; k < 5; k++) {
        const king = rng() < 0.5;
        const mine = k < nb;
        const s = king ? sq(taken, 1, 32) : mine ? sq(taken, 1, 28) : sq(taken, 5, 32);
        const bit = 1 << (s - 1);
        if (mine) black |= bit;
        else white |= bit;
        if (king) kings |= bit;
      }
      const p: Position = { black, white, kings, turn: rng() < 0.5 ? 'black' : 'white' };
      const i = five.indexOf(p);
      expect(i).toBeGreaterThanOrEqual(four.size);
      expect(i).toBeLessThan(five.size);
      const fen = makeFen(p);
      expect(seen.get(i) ?? fen).toBe(fen);
      seen.set(i, fen);
      expect(four.indexOf(p)).toBe(-1);
    }
  });
});

describe('a 5-piece slice, solved as the real build solves it', () => {
  const four = loadEgdb(4, TEST_EGDB_DIR);
  const db = new Egdb(5);
  db.seed(four);
  const progress: string[] = [];
  // The first 5-piece slice (a king against four; 2.3 million indices): the same solveSlice as the
  // build, on the 4-piece values it starts from.
  const first = four.sliceCount;
  db.solve((done, total, name) => progress.push(`${done}/${total} ${name}`), first + 1);

  it('reports its progress and holds the 4-piece values it started from', () => {
    expect(progress).toEqual(['42/85 0bm1bk-0wm4wk']);
    expect(db.slicesSolved).toBe(first + 1);
    for (const fen of ['W:WK18,K19:BK1', 'W:WK19,K23:BK28,12', 'B:WK18:BK1'])
      expect(db.probe(unwrap(parseFen(fen)))).toBe(four.probe(unwrap(parseFen(fen))));
    // Not solved yet: no value rather than a wrong one.
    expect(db.probe(unwrap(parseFen('W:WK18,K19,K20:BK1,K2')))).toBeNull();
  });

  it('agrees with its successors (captures lead into the 4-piece database) and with an exhaustive search for short results', () => {
    expect(db.verify(13, first)).toEqual([]);
    let short = 0,
      longer = 0,
      wins = 0,
      all = 0;
    let n = 0;
    for (const [i, p] of db.entries(first)) {
      all++;
      const v = db.valueAt(i)!;
      if (p.turn === 'white' && v > 0) wins++;
      if (n++ % 97 !== 0) continue;
      const plies = v === 0 ? Infinity : WIN_BASE - Math.abs(v);
      if (plies <= 3) {
        // Exactly that many plies: not sooner, and by then.
        expect(v > 0 ? winsWithin(p, plies) : losesWithin(p, plies), makeFen(p)).toBe(true);
        if (plies >= 2) expect(v > 0 ? winsWithin(p, plies - 2) : losesWithin(p, plies - 2), makeFen(p)).toBe(false);
        short++;
      } else {
        // Longer (or a draw): neither side finishes within 3 plies.
        expect(winsWithin(p, 3) || losesWithin(p, 2), makeFen(p)).toBe(false);
        longer++;
      }
    }
    expect(short).toBeGreaterThan(100);
    expect(longer).toBeGreaterThan(100);
    // Four kings against one win nearly everywhere with the move (a lone king to take or trap one of them is rare).
    expect(all).toBeGreaterThan(2_000_000);
    expect(wins / (all / 2)).toBeGreaterThan(0.99);
    // Four kings against one: the lone king in the double corner is taken in time.
    const corner = db.probe(unwrap(parseFen('W:WK14,K15,K22,K23:BK1')))!;
    expect(corner).toBeGreaterThan(0);
  });
});

describe('the compressed format', () => {
  const three = new Egdb(3);
  three.solve();

  it('reads back every value of the 3- and 4-piece databases, a block inflated at a time', () => {
    for (const db of [three, loadEgdb(4, TEST_EGDB_DIR)]) {
      const buf = packToBuffer(db);
      const packed = PackedEgdb.open(readerOf(buf), buf.length);
      if (typeof packed === 'string') throw new Error(packed);
      expect(packed.verifyBlocks()).toBeNull();
      expect(packed.maxPieces).toBe(db.maxPieces);
      expect(packed.maxValue).toBe(db.maxValue);
      let bad = 0;
      const step = db.maxPieces === 3 ? 1 : 3; // (every value of 3 pieces, every third of 4: each block)
      for (let i = 0; i < db.size; i += step) if (packed.valueAt(i) !== db.valueAt(i)) bad++;
      expect(bad).toBe(0);
      expect(buf.length).toBeLessThan(db.size / 3); // (a byte a value uncompressed)
      for (const fen of ['W:WK18,K19:BK1', 'B:WK18:BK1', 'W:WK6,K7:BK2', 'B:W18:B15']) {
        const p = unwrap(parseFen(fen));
        expect(packed.probe(p), fen).toBe(db.probe(p));
      }
    }
  });

  it('keeps the blocks it read inflated up to its budget, the least recently used out first', () => {
    const buf = packToBuffer(three);
    const small = PackedEgdb.open(readerOf(buf), buf.length, 4 * 16384) as PackedEgdb; // four one-byte blocks
    const roomy = PackedEgdb.open(readerOf(buf), buf.length) as PackedEgdb;
    expect(small.blocks).toBeGreaterThan(8);
    for (const db of [small, roomy]) {
      for (let b = 0; b < 8; b++) expect(db.valueAt(b * small.blockSize)).toBe(three.valueAt(b * small.blockSize));
      expect(db.inflated).toBe(8);
      // Again: the small one has kept only the last four, the roomy one all eight.
      for (let b = 0; b < 8; b++) expect(db.valueAt(b * small.blockSize + 1)).toBe(three.valueAt(b * small.blockSize + 1));
    }
    expect(small.inflated).toBe(16);
    expect(roomy.inflated).toBe(8);
    small.valueAt(7 * small.blockSize); // used last: still there
    expect(small.inflated).toBe(16);
  });

  it('keeps a value beyond a byte (a result longer than 253 plies) in a two-byte block', () => {
    const db = new Egdb(3);
    expect(db.adopt(three.serialize())).toBeNull();
    const deep = [1000, 50_000, 431_999].filter((i) => db.data[i] !== 0xffff);
    for (const [k, i] of deep.entries()) db.data[i] = 300 + k;
    const buf = packToBuffer(db, 4096);
    const packed = PackedEgdb.open(readerOf(buf), buf.length) as PackedEgdb;
    expect(packed.maxValue).toBe(299 + deep.length);
    for (let i = 0; i < db.size; i += 7) expect(packed.valueAt(i)).toBe(db.valueAt(i));
    for (const i of deep) expect(packed.valueAt(i)).toBe(db.valueAt(i));
  });

  it('a damaged, truncated or foreign file is refused, saying why', () => {
    const buf = packToBuffer(three);
    const open = (b: Buffer): PackedEgdb | string => {
      const p = PackedEgdb.open(readerOf(b), b.length);
      return typeof p === 'string' ? p : (p.verifyBlocks() ?? p);
    };
    expect(open(buf)).toBeInstanceOf(PackedEgdb);
    const flipped = Buffer.from(buf);
    flipped[buf.length - 100]! ^= 8;
    expect(open(flipped)).toMatch(/^block \d+: checksum mismatch$/);
    expect(open(buf.subarray(0, buf.length - 1))).toMatch(/^truncated or padded/);
    expect(open(buf.subarray(0, 20))).toMatch(/^truncated/);
    expect(open(Buffer.concat([buf, Buffer.from([0])]))).toMatch(/^truncated or padded/);
    const header = Buffer.from(buf);
    header[12]! ^= 1;
    expect(open(header)).toBe('header checksum mismatch');
    const table = Buffer.from(buf);
    table[44]! ^= 1;
    expect(open(table)).toBe('table checksum mismatch');
    expect(open(three.serialize())).toBe('not a compressed endgame database file of this version');
    // A block damaged after the file was opened is refused when a probe reads it.
    const late = Buffer.from(buf);
    const packed = PackedEgdb.open(readerOf(late), late.length) as PackedEgdb;
    late[late.length - 100]! ^= 8;
    expect(() => {
      for (let i = 0; i < three.size; i += 1000) packed.valueAt(i);
    }).toThrow(/block \d+ is damaged \(checksum mismatch\)/);
  });
});

describe('the engine uses the compressed database when its file is there and whole', () => {
  const dir = mkdtempSync(join(tmpdir(), 'crownhead-egdb5-'));
  copyFileSync(egdbFile(4, TEST_EGDB_DIR), egdbFile(4, dir));
  const logs: string[] = [];
  // (The compressed database of 3 pieces stands in for the 5-piece one: the same build, file and loader.)
  const built = buildPackedEgdb(3, dir, undefined, (m) => logs.push(m));

  it('is built atomically through the cache (seeded from the smaller database) and read back', () => {
    expect(built.file).toBe(egdbFile(3, dir));
    expect(readFileSync(built.file).length).toBe(built.bytes);
    expect(logs[0]).toMatch(/^building the 2-piece endgame database/);
    const db = loadEndgame(dir, (m) => logs.push(m), 3);
    expect(db).toBeInstanceOf(PackedEgdb);
    expect(db.maxPieces).toBe(3);
  });

  it('the search gives the same moves and scores with it as with the database in memory', () => {
    const packed = loadEndgame(dir, () => {}, 3);
    const plain = new Egdb(3);
    plain.solve();
    for (const fen of ['W:WK18,K19:BK1', 'B:WK18,K19:BK1', 'W:W18,K27:B11', 'B:W22:B6,K15', 'W:WK14:B9,10']) {
      const p = unwrap(parseFen(fen));
      const a = think({ position: p, quietPlies: 0, limits: { depth: 6 } }, { egdb: packed });
      const b = think({ position: p, quietPlies: 0, limits: { depth: 6 } }, { egdb: plain });
      expect([a.move, a.score], fen).toEqual([b.move, b.score]);
    }
    // The 40-move rule still reads the distances: a win past the count is a draw.
    const p = unwrap(parseFen('W:WK18,K19:BK1'));
    expect(think({ position: p, quietPlies: 0, limits: { depth: 6 } }, { egdb: packed }).score).toBeGreaterThan(0);
    expect(think({ position: p, quietPlies: 75, limits: { depth: 24 } }, { egdb: packed }).score).toBe(0);
  });

  it('a build stopped part-way resumes from its solved slices, and writes the same file', () => {
    const again = mkdtempSync(join(tmpdir(), 'crownhead-egdb5-resume-'));
    copyFileSync(egdbFile(2, dir), egdbFile(2, again));
    const stopAt = 9;
    expect(() =>
      buildPackedEgdb(3, again, (done) => {
        if (done === stopAt) throw new Error('power cut');
      }),
    ).toThrow('power cut');
    const partial = `${egdbFile(3, again)}.partial`;
    const kept = readdirSync(partial).filter((f) => f.endsWith('.slice'));
    expect(kept).toHaveLength(stopAt - 4); // (the first 4 slices are the 2-piece database's)
    expect(readdirSync(again)).not.toContain('egdb-3.bin');
    // One checkpoint damaged: that slice and those after it are solved again.
    const last = join(partial, kept.sort().at(-1)!);
    const bytes = readFileSync(last);
    bytes[bytes.length - 3]! ^= 1;
    writeFileSync(last, bytes);
    const said: string[] = [],
      solved: number[] = [];
    const r = buildPackedEgdb(
      3,
      again,
      (done) => solved.push(done),
      (m) => said.push(m),
    );
    expect(r.resumed).toBe(stopAt - 5);
    expect(said).toEqual([`resuming the build: ${stopAt - 5} solved slices read back from ${partial}`]);
    expect(solved[0]).toBe(stopAt); // the damaged one, solved again
    expect(readFileSync(r.file)).toEqual(readFileSync(built.file));
    expect(readdirSync(again)).toEqual(['egdb-2.bin', 'egdb-3.bin']);
  });

  it('a damaged file is reported by name and not used: the 4-piece database instead', () => {
    const bad = mkdtempSync(join(tmpdir(), 'crownhead-egdb5-bad-'));
    copyFileSync(egdbFile(4, TEST_EGDB_DIR), egdbFile(4, bad));
    const good = readFileSync(built.file);
    for (const [bytes, why] of [
      [good.subarray(0, good.length - 10), /truncated or padded/],
      [Buffer.from('hello, world, this is not a database at all'), /not a compressed endgame database/],
    ] as const) {
      writeFileSync(egdbFile(5, bad), bytes);
      forgetEgdbs();
      const said: string[] = [];
      const db = loadEndgame(bad, (m) => said.push(m));
      expect(db).toBeInstanceOf(Egdb);
      expect(db.maxPieces).toBe(4);
      expect(said).toHaveLength(1);
      expect(said[0]).toContain(egdbFile(5, bad));
      expect(said[0]).toMatch(why);
      expect(said[0]).toMatch(/not used; rebuild it with crownhead egdb build --pieces 5$/);
    }
    // A whole compressed file of another piece count under the 5-piece name is refused too.
    writeFileSync(egdbFile(5, bad), good);
    forgetEgdbs();
    const said: string[] = [];
    expect(loadEndgame(bad, (m) => said.push(m)).maxPieces).toBe(4);
    expect(said[0]).toMatch(/made for 3 pieces/);
  });
});

describe('crownhead egdb', () => {
  const withCache = async (dir: string, ...argv: string[]) => {
    const before = process.env.CROWNHEAD_CACHE;
    process.env.CROWNHEAD_CACHE = dir;
    try {
      forgetEgdbs();
      return await run('egdb', ...argv);
    } finally {
      process.env.CROWNHEAD_CACHE = before;
    }
  };

  it('status says what is built, where, and its size; a damaged 5-piece file is named as such', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crownhead-egdb5-cli-'));
    let r = await withCache(dir, 'status');
    expect(r.code).toBe(0);
    expect(r.out).toEqual([
      `4 pieces: not built (${egdbFile(4, dir)}); built on first use`,
      `5 pieces: not built (${egdbFile(5, dir)}); build it with crownhead egdb build --pieces 5`,
    ]);
    copyFileSync(egdbFile(4, TEST_EGDB_DIR), egdbFile(4, dir));
    writeFileSync(egdbFile(5, dir), 'not a database: '.repeat(10));
    r = await withCache(dir, 'status');
    expect(r.out[0]).toBe(`4 pieces: ${egdbFile(4, dir)}, 14.9 MB`);
    expect(r.out[1]).toMatch(
      /^5 pieces: .*egdb-5\.bin, 0\.0 MB, DAMAGED \(not a compressed endgame database file of this version\): not used$/,
    );
    r = await withCache(dir, 'build', '--pieces', '4');
    expect(r.code).toBe(0);
    expect(r.out).toEqual([`4-piece endgame database: ${egdbFile(4, dir)}, 14.9 MB, 14910600 indices`]);
  });

  it('bad flags get a clear error and the usage', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crownhead-egdb5-cli-'));
    for (const [argv, msg] of [
      [['build', '--pieces', '6'], /--pieces must be 4 or 5, not "6"/],
      [['build', '--pieces', 'five'], /--pieces must be 4 or 5, not "five"/],
      [['build', '--pieces'], /option --pieces/],
      [[], /say build or status/],
      [['frob'], /unknown action "frob" \(build or status\)/],
      [['status', '--pieces', '5'], /status takes no --pieces/],
      [['build', 'now'], /unexpected argument "now"/],
      [['build', '--piece', '5'], /unknown option --piece/],
    ] as const) {
      const r = await withCache(dir, ...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err.join('\n'), argv.join(' ')).toMatch(msg);
      expect(r.err.join('\n')).toMatch(/usage: crownhead egdb build/);
    }
    const help = await withCache(dir, '--help');
    expect(help.code).toBe(0);
    expect(help.out.join('\n')).toMatch(/the 5-piece one\nonly by "crownhead egdb build --pieces 5"/);
  });
});

// The compressed endgame database (the 5-piece one: 374 million indices, too
// many to keep a byte each in memory or on disk): the solved values of
// egdb.ts cut into blocks of BLOCK indices, each block deflated on its own —
// one byte a value when every value in the block fits (255 for an unused
// index), else two — behind a table of the blocks' places, lengths and
// CRC-32s. A probe reads and inflates only its block; the blocks read last
// stay inflated (up to CACHE_BYTES, least recently used out first), as the
// search probes the same blocks again on every iteration.
//
// File: a header (magic, piece count, indices, block size, block count,
// largest value, the table's CRC-32, the header's own CRC-32), the table
// (16 bytes a block: place, length, CRC-32 of the deflated bytes, width), the
// blocks in order, ending where the file ends. Whatever does not match —
// header, table, a block's place, length or checksum — refuses the file,
// never trusted. Pure: the bytes come and go through the functions given
// (src/engine-host/egdb-cache.ts reads and writes the file).

import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Position } from '../rules/index.ts';
import { decode, UNUSED, WIN_BASE, type Egdb, type EndgameProbe } from './egdb.ts';
import { EgdbLayout } from './egdb-layout.ts';

export const PACK_MAGIC = 'CHEGDBZ1';
const HEADER = 40;
const ENTRY = 16;
/** Indices a block: inflating one takes some tens of microseconds. */
export const BLOCK = 16384;
/**
 * Bytes of inflated blocks kept (16 KiB a one-byte block, 32 a two-byte one):
 * a search of a second from 8 pieces probes some 6,000 blocks, and a cache
 * smaller than that inflates most of them again on every iteration (512
 * blocks: 4 of 5 probes' time; bench/egdb.ts).
 */
export const CACHE_BYTES = 128 * 2 ** 20;

/**
 * Writes a solved database compressed: `write(bytes, at)` puts bytes at a
 * file position (the blocks first, then the header and table at 0).
 * Returns the file's length.
 */
export function packEgdb(db: Egdb, write: (bytes: Uint8Array, at: number) => void, block = BLOCK): number {
  const n = db.data.length;
  const blocks = Math.ceil(n / block);
  const table = Buffer.alloc(blocks * ENTRY);
  let at = HEADER + table.length;
  for (let b = 0; b < blocks; b++) {
    const vals = db.data.subarray(b * block, Math.min(n, (b + 1) * block));
    let wide = false;
    for (const v of vals) if (v !== UNUSED && v >= 255) wide = true;
    let raw: Uint8Array;
    if (wide)
      raw = new Uint8Array(vals.buffer.slice(vals.byteOffset, vals.byteOffset + vals.byteLength)); // little-endian u16
    else {
      raw = new Uint8Array(vals.length);
      for (let i = 0; i < vals.length; i++) raw[i] = vals[i] === UNUSED ? 255 : vals[i]!;
    }
    for (const v of vals) if (v > UNUSED - 2 && v !== UNUSED) throw new Error('endgame database: packing before it is solved');
    const z = deflateRawSync(raw, { level: 9 });
    table.writeUInt32LE(at, b * ENTRY);
    table.writeUInt32LE(z.length, b * ENTRY + 4);
    table.writeUInt32LE(crc32(z), b * ENTRY + 8);
    table.writeUInt32LE(wide ? 2 : 1, b * ENTRY + 12);
    write(z, at);
    at += z.length;
    if (at > 0xffff_ffff) throw new Error('endgame database: the packed file would pass 4 GiB');
  }
  const head = Buffer.alloc(HEADER);
  head.write(PACK_MAGIC, 0, 'latin1');
  head.writeUInt32LE(db.maxPieces, 8);
  head.writeUInt32LE(n, 12);
  head.writeUInt32LE(block, 16);
  head.writeUInt32LE(blocks, 20);
  head.writeUInt32LE(db.maxValue, 24);
  head.writeUInt32LE(crc32(table), 28);
  head.writeUInt32LE(crc32(head.subarray(0, 32)), 32);
  write(Buffer.concat([head, table]), 0);
  return at;
}

/** Reads `length` bytes at file position `at`. */
export type ReadAt = (at: number, length: number) => Uint8Array;

/** The compressed database, probed block by block (see the header). */
export class PackedEgdb implements EndgameProbe {
  readonly layout: EgdbLayout;
  readonly blockSize: number;
  readonly blocks: number;
  readonly maxValue: number;
  private readonly table: Buffer;
  private readonly cache = new Map<number, Uint8Array | Uint16Array>();
  private cacheBytes = 0;
  /** Blocks read and inflated so far (a probe's cost: see bench/). */
  inflated = 0;

  private constructor(
    readonly maxPieces: number,
    head: Buffer,
    table: Buffer,
    readonly read: ReadAt,
    readonly fileSize: number,
    private readonly cacheLimit: number,
  ) {
    this.layout = new EgdbLayout(maxPieces);
    this.blockSize = head.readUInt32LE(16);
    this.blocks = head.readUInt32LE(20);
    this.maxValue = head.readUInt32LE(24);
    this.table = table;
  }

  /**
   * Opens a packed file of `fileSize` bytes when its header and table hold
   * together (the blocks are checked as they are read, or all at once by
   * verifyBlocks); otherwise returns why it cannot be trusted. `cacheBytes`:
   * how many bytes of inflated blocks it keeps (default CACHE_BYTES).
   */
  static open(read: ReadAt, fileSize: number, cacheBytes = CACHE_BYTES): PackedEgdb | string {
    if (fileSize < HEADER) return `truncated (${fileSize} bytes)`;
    const head = Buffer.from(read(0, HEADER));
    if (head.toString('latin1', 0, 8) !== PACK_MAGIC) return 'not a compressed endgame database file of this version';
    if (crc32(head.subarray(0, 32)) !== head.readUInt32LE(32)) return 'header checksum mismatch';
    const pieces = head.readUInt32LE(8);
    if (pieces < 2 || pieces > 5) return `made for ${pieces} pieces`;
    const layout = new EgdbLayout(pieces);
    const block = head.readUInt32LE(16),
      blocks = head.readUInt32LE(20);
    if (head.readUInt32LE(12) !== layout.size || block < 1 || blocks !== Math.ceil(layout.size / block))
      return 'its size does not match the layout of this version';
    if (fileSize < HEADER + blocks * ENTRY) return `truncated (${fileSize} bytes)`;
    const table = Buffer.from(read(HEADER, blocks * ENTRY));
    if (crc32(table) !== head.readUInt32LE(28)) return 'table checksum mismatch';
    let at = HEADER + blocks * ENTRY;
    for (let b = 0; b < blocks; b++) {
      const w = table.readUInt32LE(b * ENTRY + 12);
      if (table.readUInt32LE(b * ENTRY) !== at || (w !== 1 && w !== 2)) return `block ${b} is out of place`;
      at += table.readUInt32LE(b * ENTRY + 4);
    }
    if (at !== fileSize) return `truncated or padded (${fileSize} bytes, ${at} expected)`;
    return new PackedEgdb(pieces, head, table, read, fileSize, cacheBytes);
  }

  /** Every block's checksum (reads the whole file once, inflates nothing); the first bad block, or null. */
  verifyBlocks(): string | null {
    for (let b = 0; b < this.blocks; b++) {
      const z = this.read(this.table.readUInt32LE(b * ENTRY), this.table.readUInt32LE(b * ENTRY + 4));
      if (crc32(z) !== this.table.readUInt32LE(b * ENTRY + 8)) return `block ${b}: checksum mismatch`;
    }
    return null;
  }

  private block(b: number): Uint8Array | Uint16Array {
    const known = this.cache.get(b);
    if (known) {
      this.cache.delete(b); // most recently used last
      this.cache.set(b, known);
      return known;
    }
    const z = this.read(this.table.readUInt32LE(b * ENTRY), this.table.readUInt32LE(b * ENTRY + 4));
    if (crc32(z) !== this.table.readUInt32LE(b * ENTRY + 8)) throw new Error(`endgame database: block ${b} is damaged (checksum mismatch)`);
    const raw = inflateRawSync(z);
    const wide = this.table.readUInt32LE(b * ENTRY + 12) === 2;
    const vals = wide ? new Uint16Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.length)) : raw;
    this.inflated++;
    while (this.cacheBytes + vals.byteLength > this.cacheLimit && this.cache.size) {
      const [oldest, old] = this.cache.entries().next().value!;
      this.cache.delete(oldest);
      this.cacheBytes -= old.byteLength;
    }
    this.cache.set(b, vals);
    this.cacheBytes += vals.byteLength;
    return vals;
  }

  /** Forgets the inflated blocks (a benchmark's cold start). */
  dropCache(): void {
    this.cache.clear();
    this.cacheBytes = 0;
  }

  /** Value at an index (see WIN_BASE); null for an unused index. */
  valueAt(i: number): number | null {
    const vals = this.block(Math.floor(i / this.blockSize));
    const v = vals[i % this.blockSize]!;
    return (vals.BYTES_PER_ELEMENT === 1 ? v === 255 : v === UNUSED) ? null : decode(v);
  }

  probe(p: Position): number | null {
    if (!(p.turn === 'black' ? p.black : p.white)) return -WIN_BASE; // no pieces left: lost
    if (!(p.turn === 'black' ? p.white : p.black)) return null; // the game ended a move ago
    const i = this.layout.indexOf(p);
    return i < 0 ? null : this.valueAt(i);
  }
}

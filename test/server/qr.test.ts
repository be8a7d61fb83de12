// The seat link's QR code (src/server/qr.ts), read back the way a decoder
// does: the finder, timing and dark modules where the standard puts them; the
// format information, both copies, a valid BCH word naming level M and the
// mask; the codewords taken out of the zigzag with the mask undone, the
// blocks de-interleaved, every block's Reed–Solomon syndromes zero, and the
// data segment the text's bytes (byte mode, its length). (The encoder was
// also checked against the jsQR decoder, every mask and versions 1–10.)

import { describe, expect, it } from 'vitest';
import { QrError, qrMatrix, qrSvg, qrText } from '../../src/server/qr.ts';

const ECC = [-1, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26];
const BLOCKS = [-1, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5];
const MASKS: ((x: number, y: number) => boolean)[] = [
  (x, y) => (x + y) % 2 === 0,
  (_x, y) => y % 2 === 0,
  (x) => x % 3 === 0,
  (x, y) => (x + y) % 3 === 0,
  (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0,
  (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
  (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
  (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
];

function gfMul(x: number, y: number): number {
  let z = 0;
  for (let i = 7; i >= 0; i--) {
    z = (z << 1) ^ ((z >>> 7) * 0x11d);
    z ^= ((y >>> i) & 1) * x;
  }
  return z;
}
/** The codeword polynomial evaluated at α^i: zero for every i < ecc when the block is a codeword. */
function syndrome(block: number[], i: number): number {
  let a = 1;
  for (let k = 0; k < i; k++) a = gfMul(a, 2);
  return block.reduce((acc, c) => gfMul(acc, a) ^ c, 0);
}

/** The modules a decoder skips when reading data (finders and separators, timing, alignment, format and version areas). */
function functionModules(size: number, ver: number): boolean[][] {
  const f = Array.from({ length: size }, () => new Array<boolean>(size).fill(false));
  const mark = (x0: number, y0: number, w: number, h: number) => {
    for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) if (x >= 0 && y >= 0 && x < size && y < size) f[y]![x] = true;
  };
  mark(0, 0, 9, 9);
  mark(size - 8, 0, 8, 9);
  mark(0, size - 8, 9, 8);
  mark(6, 0, 1, size);
  mark(0, 6, size, 1);
  if (ver >= 2) {
    const n = Math.floor(ver / 7) + 2;
    const step = Math.ceil((ver * 4 + 4) / (n * 2 - 2)) * 2;
    const pos = [6];
    for (let p = size - 7; pos.length < n; p -= step) pos.splice(1, 0, p);
    for (const a of pos)
      for (const b of pos)
        if (!((a === 6 && b === 6) || (a === 6 && b === size - 7) || (a === size - 7 && b === 6))) mark(a - 2, b - 2, 5, 5);
  }
  if (ver >= 7) {
    mark(size - 11, 0, 3, 6);
    mark(0, size - 11, 6, 3);
  }
  return f;
}

function readBack(text: string): { ver: number; mask: number; level: number; data: number[] } {
  const m = qrMatrix(text);
  const size = m.length;
  const ver = (size - 17) / 4;
  expect(Number.isInteger(ver)).toBe(true);
  const at = (x: number, y: number) => m[y]![x]!;
  // Finder patterns: the 7×7 ring-and-core at three corners.
  for (const [cx, cy] of [
    [3, 3],
    [size - 4, 3],
    [3, size - 4],
  ] as const)
    for (let dy = -3; dy <= 3; dy++)
      for (let dx = -3; dx <= 3; dx++) expect(at(cx + dx, cy + dy)).toBe(Math.max(Math.abs(dx), Math.abs(dy)) !== 2);
  for (let i = 8; i < size - 8; i++) {
    expect(at(i, 6)).toBe(i % 2 === 0);
    expect(at(6, i)).toBe(i % 2 === 0);
  }
  expect(at(8, size - 8)).toBe(true);
  // Format information: both copies the same valid BCH(15,5) word.
  let a = 0;
  let b = 0;
  const first = [...[0, 1, 2, 3, 4, 5, 7, 8].map((y) => [8, y]), ...[7, 5, 4, 3, 2, 1, 0].map((x) => [x, 8])];
  first.forEach(([x, y], i) => (a |= (at(x!, y!) ? 1 : 0) << i));
  for (let i = 0; i < 8; i++) b |= (at(size - 1 - i, 8) ? 1 : 0) << i;
  for (let i = 8; i < 15; i++) b |= (at(8, size - 15 + i) ? 1 : 0) << i;
  expect(a).toBe(b);
  const word = a ^ 0x5412;
  const data = word >>> 10;
  let rem = data;
  for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
  expect(word & 0x3ff).toBe(rem & 0x3ff);
  const level = data >>> 3;
  const mask = data & 7;
  // The codewords, out of the zigzag, the mask undone.
  const fixed = functionModules(size, ver);
  const bits: number[] = [];
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5;
    for (let vert = 0; vert < size; vert++)
      for (let j = 0; j < 2; j++) {
        const x = right - j;
        const y = ((right + 1) & 2) === 0 ? size - 1 - vert : vert;
        if (!fixed[y]![x]) bits.push((at(x, y) !== MASKS[mask]!(x, y) ? 1 : 0) as number);
      }
  }
  const words: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) words.push(bits.slice(i, i + 8).reduce((p, q) => (p << 1) | q, 0));
  // De-interleaved: short blocks first, every block a codeword.
  const n = BLOCKS[ver]!;
  const ecc = ECC[ver]!;
  const raw = words.length;
  const shortLen = Math.floor(raw / n);
  const short = n - (raw % n);
  const blocks: number[][] = Array.from({ length: n }, () => []);
  let k = 0;
  for (let i = 0; i < shortLen + 1; i++) for (let j = 0; j < n; j++) if (i !== shortLen - ecc || j >= short) blocks[j]!.push(words[k++]!);
  for (const blk of blocks) for (let i = 0; i < ecc; i++) expect(syndrome(blk, i)).toBe(0);
  return { ver, mask, level, data: blocks.flatMap((blk) => blk.slice(0, blk.length - ecc)) };
}

describe('the seat link as a QR code', () => {
  it.each([
    'http://192.168.1.20:8080/play/AbCdEfGhIjKlMnOpQrStUvWx',
    'https://crownhead.example.org:8443/play/ZZZZZZZZZZZZZZZZZZZZZZZZ',
    'x',
    'ü€ '.repeat(30),
  ])('reads back as %j: level M, valid format and Reed–Solomon blocks, the bytes in byte mode', (text) => {
    const { level, data, ver } = readBack(text);
    expect(level).toBe(0); // M
    const bytes = new TextEncoder().encode(text);
    const bits = data.flatMap((w) => [7, 6, 5, 4, 3, 2, 1, 0].map((i) => (w >>> i) & 1));
    const num = (from: number, len: number) => bits.slice(from, from + len).reduce((p, q) => (p << 1) | q, 0);
    expect(num(0, 4)).toBe(0b0100);
    const countBits = ver <= 9 ? 8 : 16;
    expect(num(4, countBits)).toBe(bytes.length);
    const got = Array.from({ length: bytes.length }, (_, i) => num(4 + countBits + 8 * i, 8));
    expect(got).toEqual([...bytes]);
  });

  it('picks the smallest version that holds the text, and refuses one too long, named', () => {
    expect(qrMatrix('x')).toHaveLength(21);
    expect(qrMatrix('https://crownhead.example.org:8443/play/ZZZZZZZZZZZZZZZZZZZZZZZZ').length).toBeGreaterThan(21);
    expect(() => qrMatrix('a'.repeat(300))).toThrow(QrError);
  });

  it('draws an SVG with a quiet zone, and terminal text two rows a line', () => {
    const n = qrMatrix('x').length;
    expect(qrSvg('x')).toMatch(new RegExp(`viewBox="0 0 ${n + 8} ${n + 8}"`));
    expect(qrText('x').split('\n')).toHaveLength(Math.ceil((n + 4) / 2));
  });
});

// Random and mutated PDN: the reader only ever reports typed PdnErrors, never
// throws, and always finishes (a hang would hit the test timeout).
import { describe, expect, it } from 'vitest';
import { readPdn, PdnError, makePdnFile } from '../../src/pdn/index.ts';
import { corpusFile } from '../harness/corpus.ts';
import { mulberry32 as rng } from '../../src/common/prng.ts';

const ALPHABET = '[]{}()"%;$!?.-x:*/\\ \n\r\t0123456789KBWkbwEventFENSetUp1-00-11/2-1/2';

function check(text: string): void {
  let result;
  try {
    result = readPdn(text);
  } catch (e) {
    throw new Error(`reader threw on ${JSON.stringify(text.slice(0, 200))}: ${(e as Error).stack}`);
  }
  for (const e of result.errors) {
    expect(e).toBeInstanceOf(PdnError);
    expect(e.message.length).toBeGreaterThan(0);
  }
  // Whatever was accepted can be written and read back.
  if (result.games.length) expect(readPdn(makePdnFile(result.games)).errors).toEqual([]);
}

describe('PDN fuzzing', () => {
  it('random text from the PDN alphabet', () => {
    const r = rng(1);
    for (let k = 0; k < 3000; k++) {
      const len = Math.floor(r() * 120);
      let s = '';
      for (let i = 0; i < len; i++) s += ALPHABET[Math.floor(r() * ALPHABET.length)];
      check(s);
    }
  });

  it('random bytes', () => {
    const r = rng(2);
    for (let k = 0; k < 1000; k++) {
      const len = Math.floor(r() * 200);
      check(String.fromCharCode(...Array.from({ length: len }, () => Math.floor(r() * 256))));
    }
  });

  it('mutated corpus games: cut, duplicated, deleted and flipped characters', () => {
    const r = rng(3);
    const sources = ['tinsley.pdn', 'tricks_traps_and_shots.pdn', 'gem.pdn', 'OCA_2.0.pdn'].map(corpusFile);
    for (let k = 0; k < 1500; k++) {
      const src = sources[k % sources.length];
      const at = Math.floor(r() * (src.length - 1200));
      let s = src.slice(at, at + 200 + Math.floor(r() * 1000));
      const edits = 1 + Math.floor(r() * 6);
      for (let e = 0; e < edits; e++) {
        const p = Math.floor(r() * s.length);
        const op = Math.floor(r() * 4);
        if (op === 0) s = s.slice(0, p) + s.slice(p + 1 + Math.floor(r() * 5));
        else if (op === 1) s = s.slice(0, p) + ALPHABET[Math.floor(r() * ALPHABET.length)] + s.slice(p);
        else if (op === 2) s = s.slice(0, p) + s.slice(p, p + 20) + s.slice(p);
        else s = s.slice(0, p) + String.fromCharCode(s.charCodeAt(p) ^ (1 << Math.floor(r() * 7))) + s.slice(p + 1);
      }
      check(s);
    }
  });

  it('pathological inputs: deep nesting, huge numbers, endless dots', () => {
    check('('.repeat(5000) + ')'.repeat(5000));
    check('1. 11-15 ' + '('.repeat(3000) + '1. 9-13 ' + ')'.repeat(3000) + ' *');
    check('9'.repeat(10000) + '.');
    check('.'.repeat(100000));
    check('[' + 'A'.repeat(100000));
    check('{' + 'x'.repeat(100000));
    check('$' + '9'.repeat(1000));
  });
});

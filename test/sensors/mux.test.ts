import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SELECT_PINS, channelOf, muxOf, selectFaults, sensorRead } from '../../src/sensors/mux.ts';

const pinmap = JSON.parse(readFileSync(new URL('../../hardware/pinmap.json', import.meta.url), 'utf8')) as {
  muxSelectPins: number[];
  squares: { square: number; mux: number; channel: number }[];
};

describe('multiplexer addressing', () => {
  it('is the wiring of hardware/pinmap.json', () => {
    expect([...SELECT_PINS]).toEqual(pinmap.muxSelectPins);
    for (const s of pinmap.squares) expect([muxOf(s.square), channelOf(s.square)]).toEqual([s.mux, s.channel]);
  });

  it('reads each square itself with no fault, and a different pattern for each select-line fault', () => {
    const all = Array.from({ length: 32 }, (_, i) => i + 1);
    expect(all.map((s) => sensorRead(null, s))).toEqual(all);
    const patterns = selectFaults().map((f) => all.map((s) => sensorRead(f, s)).join(','));
    expect(new Set(patterns).size).toBe(patterns.length);
    // a swap is a permutation within each multiplexer; a stuck or shorted line reads some sensors twice and others never
    for (const f of selectFaults()) {
      const read = all.map((s) => sensorRead(f, s));
      expect(read.every((r, i) => muxOf(r) === muxOf(i + 1))).toBe(true);
      expect(new Set(read).size === 32).toBe(f.kind === 'swap');
    }
  });
});

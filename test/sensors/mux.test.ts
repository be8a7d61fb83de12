import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SELECT_PINS, channelName, channelOf, muxOf, readAfter, readBefore, selectFaults, sensorRead } from '../../src/sensors/mux.ts';

const pinmap = JSON.parse(readFileSync(new URL('../../hardware/pinmap.json', import.meta.url), 'utf8')) as {
  muxSelectPins: number[];
  squares: { square: number; mux: number; channel: number }[];
};

describe('multiplexer addressing', () => {
  it('is the wiring of hardware/pinmap.json', () => {
    expect([...SELECT_PINS]).toEqual(pinmap.muxSelectPins);
    for (const s of pinmap.squares) expect([muxOf(s.square), channelOf(s.square)]).toEqual([s.mux, s.channel]);
  });

  it('names channels as the breakouts do and knows the scan order on each mux', () => {
    for (const s of pinmap.squares) expect(channelName(s.square)).toBe(`mux ${s.mux} C${s.channel}`);
    expect([channelName(5), channelName(7), channelName(20)]).toEqual(['mux 0 C4', 'mux 0 C6', 'mux 1 C3']);
    expect([readBefore(12), readAfter(12)]).toEqual([11, 13]);
    // channel 0 comes after channel 15 of the same mux (the scan before), never after the other mux
    expect([readBefore(1), readBefore(17), readAfter(16), readAfter(32)]).toEqual([16, 32, 1, 17]);
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

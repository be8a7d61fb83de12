// hardware/pinmap.json is the single source of truth for the wiring. This
// checks that firmware/src/pins.h, the tables in hardware/WIRING.md and the
// emulator's mux model all say the same thing.
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const read = (p: string) => readFileSync(resolve(root, p), 'utf8');

interface PinMap {
  muxSelectPins: number[];
  muxSignalPins: string[];
  muxSignalAnalog: number[];
  buzzerPin: number;
  ledPin: number;
  squares: { square: number; mux: number; channel: number }[];
}
const pinmap = JSON.parse(read('hardware/pinmap.json')) as PinMap;

function cArray(src: string, name: string): number[] {
  const m = new RegExp(`${name}\\s*\\[\\s*\\d*\\s*\\][^=]*=\\s*\\{([^}]*)\\}`).exec(src);
  if (!m) throw new Error(`pins.h: no array ${name}`);
  return m[1]
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map(Number);
}
function cScalar(src: string, name: string): number {
  const m = new RegExp(`${name}\\s*=\\s*(\\d+)\\s*;`).exec(src);
  if (!m) throw new Error(`pins.h: no constant ${name}`);
  return Number(m[1]);
}

describe('pin map', () => {
  it('pinmap.json is complete and consistent', () => {
    expect(pinmap.squares.map((s) => s.square)).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
    const used = new Set(pinmap.squares.map((s) => `${s.mux}/${s.channel}`));
    expect(used.size).toBe(32); // every square on its own mux input
    expect(pinmap.muxSignalPins).toEqual(pinmap.muxSignalAnalog.map((n) => `A${n}`));
  });

  it('firmware/src/pins.h equals hardware/pinmap.json', () => {
    const h = read('firmware/src/pins.h');
    expect(cArray(h, 'PIN_MUX_SELECT')).toEqual(pinmap.muxSelectPins);
    expect(cArray(h, 'PIN_MUX_SIGNAL_ANALOG')).toEqual(pinmap.muxSignalAnalog);
    expect(cScalar(h, 'PIN_BUZZER')).toBe(pinmap.buzzerPin);
    expect(cScalar(h, 'PIN_LED')).toBe(pinmap.ledPin);
    expect(cScalar(h, 'NUM_SQUARES')).toBe(pinmap.squares.length);
    expect(cArray(h, 'SQUARE_MUX')).toEqual(pinmap.squares.map((s) => s.mux));
    expect(cArray(h, 'SQUARE_CHANNEL')).toEqual(pinmap.squares.map((s) => s.channel));
  });

  it('hardware/WIRING.md tables equal hardware/pinmap.json', () => {
    const md = read('hardware/WIRING.md');
    // Signals table rows: | D2 | S0 | …
    const signal = (name: string) => {
      const m = new RegExp(`^\\|\\s*(D\\d+|A\\d+)\\s*\\|\\s*${name}\\s*\\|`, 'm').exec(md);
      if (!m) throw new Error(`WIRING.md: no row for ${name}`);
      return m[1];
    };
    expect(['S0', 'S1', 'S2', 'S3'].map(signal)).toEqual(pinmap.muxSelectPins.map((p) => `D${p}`));
    expect(['mux 0 SIG', 'mux 1 SIG'].map(signal)).toEqual(pinmap.muxSignalPins);
    expect(signal('buzzer')).toBe(`D${pinmap.buzzerPin}`);
    expect(signal('status LED')).toBe(`D${pinmap.ledPin}`);
    // Squares table rows: | 17 | 1 | C0 | A1 | …
    const rows = [...md.matchAll(/^\|\s*(\d+)\s*\|\s*(\d)\s*\|\s*C(\d+)\s*\|\s*(A\d)\s*\|/gm)].map((m) => ({
      square: Number(m[1]),
      mux: Number(m[2]),
      channel: Number(m[3]),
      input: m[4],
    }));
    expect(rows.map(({ square, mux, channel }) => ({ square, mux, channel }))).toEqual(pinmap.squares);
    for (const r of rows) expect(r.input).toBe(pinmap.muxSignalPins[r.mux]);
  });

  it('hardware/squares.svg labels every square with its mux and channel', () => {
    const svg = read('hardware/squares.svg');
    for (const s of pinmap.squares) {
      expect(svg).toContain(`id="sq${s.square}"`);
      expect(svg).toContain(`mux ${s.mux} · C${s.channel}`);
    }
  });

  it('the emulator models the same select pins and square wiring', () => {
    const c = read('firmware/emulator/crownhead-emu.c');
    // select lines: port D pins 2..5 = Arduino D2..D5
    expect(pinmap.muxSelectPins).toEqual([2, 3, 4, 5]);
    expect(c).toMatch(/AVR_IOCTL_IOPORT_GETIRQ\('D'\), 2 \+ b\)/);
    // square = input * 16 + channel + 1 ⇔ pinmap's mux/channel
    for (const s of pinmap.squares) expect(s.square).toBe(s.mux * 16 + s.channel + 1);
    expect(c).toContain('int square = (int)(input * 16 + channel + 1);');
  });
});

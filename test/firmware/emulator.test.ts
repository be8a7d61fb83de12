// The real firmware ELF on the emulated board (libsimavr): identity, framed
// readings with valid checksums, coins seen by the sensors, commands answered,
// the buzzer's notes as the harness records them on the pin (frequency, length);
// a first build's noise, settling ghost and warm-up drift.
//
// Tolerances from the noise (firmware/emulator/sensor_model.h, the one figure of
// src/sensors/magnet-physics.ts FRAME_NOISE): σ ≈ 1.5 counts per frame, so the
// difference of two frames has σ ≈ 1.5 × √2 ≈ 2.1 counts; "unchanged" allows 10
// (4.8 σ of a difference), a level read back 7 (4.7 σ of one frame, plus the
// floor's half count).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { openSync, closeSync } from 'node:fs';
import { buildEmulator, EmulatedBoard, parseFrame, withChecksum } from '../harness/emu.ts';
import { FRAME_NOISE } from '../../src/sensors/magnet-physics.ts';

const DARK = Array.from({ length: 32 }, (_, i) => i + 1);
const START_OCCUPIED = DARK.filter((s) => s <= 12 || s >= 21);
const START_EMPTY = DARK.filter((s) => s >= 13 && s <= 20);
/** counts two frames of a square at the same level may differ by (see above) */
const UNCHANGED = 10;
/** counts a frame may read from a level set by LEVELS (see above) */
const READ_BACK = 7;

describe('firmware on the emulated board', () => {
  let board: EmulatedBoard;
  /** the empty board's readings: every sensor is a different part (zero level 2.25–2.75 V) */
  let base: number[] = [];

  beforeAll(async () => {
    buildEmulator();
    board = new EmulatedBoard();
    await board.start();
  }, 120_000);

  afterAll(async () => {
    if (board) expect(await board.stop()).toBe(0);
  });

  it('answers ? with a CROWNHEAD proto=1 identity line and a real scan rate', async () => {
    const reply = board.waitFor((b) => b.startsWith('I '));
    board.send('?');
    const id = await reply;
    const m = /^I CROWNHEAD proto=1 fw=\d+\.\d+\.\d+ id=[A-Za-z0-9_-]{1,16} n=32 scan=(\d+) rate=(\d+) mode=([SQ])$/.exec(id);
    expect(m, id).not.toBeNull();
    expect(Number(m![1])).toBeGreaterThanOrEqual(100); // full-board scans per second
    expect(Number(m![2])).toBe(100);
    expect(m![3]).toBe('S');
  });

  it('streams frames of 32 readings with valid checksums and consecutive seq', async () => {
    const start = board.lines.length;
    await board.frameAfter(20);
    const frames = board.lines.slice(start).filter((b) => b.startsWith('F '));
    expect(frames.length).toBeGreaterThanOrEqual(20);
    const parsed = frames.map((b) => parseFrame(b));
    expect(parsed.every((f) => f !== null && f.values.length === 32)).toBe(true);
    for (let i = 1; i < parsed.length; i++) expect(parsed[i]!.seq).toBe((parsed[i - 1]!.seq + 1) & 0xffff);
    // only the line cut by opening the pty may fail its checksum
    expect(board.badLines.length).toBeLessThanOrEqual(1);
    // an empty board reads each sensor's zero level: 2.25–2.75 V (461–563 counts), a spread calibration must absorb
    base = parsed.at(-1)!.values;
    for (const v of base) expect(Math.abs(v - 512)).toBeLessThanOrEqual(53);
    expect(Math.max(...base) - Math.min(...base)).toBeGreaterThan(30);
  });

  it('sees the start position: each of 1-12 and 21-32 reads well above its own empty level, 13-20 unchanged', async () => {
    expect(await board.control('START')).toBe('OK');
    const f = await board.frameAfter(5);
    // one coin: 533 G × 1.0–1.75 mV/G = 109–191 counts
    for (const s of START_OCCUPIED) expect(f.values[s - 1] - base[s - 1], `square ${s}`).toBeGreaterThan(100);
    for (const s of START_EMPTY) expect(Math.abs(f.values[s - 1] - base[s - 1]), `square ${s}`).toBeLessThanOrEqual(UNCHANGED);
  });

  it('a two-coin stack reads ~1.48 × one coin on the same square, not 2 ×', async () => {
    expect(await board.control('SET 15 1')).toBe('OK');
    const one = (await board.frameAfter(5)).values[14] - base[14];
    expect(await board.control('SET 15 2')).toBe('OK');
    const two = (await board.frameAfter(5)).values[14] - base[14];
    expect(two / one).toBeGreaterThan(1.4);
    expect(two / one).toBeLessThan(1.56);
  });

  it('LIFT / PLACE / CLEAR move coins; bad control commands get ERR', async () => {
    expect(await board.control('LIFT 15')).toBe('OK');
    expect(await board.control('LIFT 15')).toBe('OK');
    expect(await board.control('PLACE 16')).toBe('OK');
    let f = await board.frameAfter(5);
    expect(Math.abs(f.values[14] - base[14])).toBeLessThanOrEqual(UNCHANGED); // square 15 empty again
    expect(f.values[15] - base[15]).toBeGreaterThan(100); // square 16 has a coin
    expect(await board.control('CLEAR')).toBe('OK');
    f = await board.frameAfter(5);
    for (let s = 1; s <= 32; s++) expect(Math.abs(f.values[s - 1] - base[s - 1])).toBeLessThanOrEqual(UNCHANGED);
    expect(await board.control('SET 33 1')).toMatch(/^ERR /);
    expect(await board.control('SET 3 3')).toMatch(/^ERR /);
    expect(await board.control('JUMP')).toMatch(/^ERR /);
    expect(await board.control('LEVELS 1 2 3')).toBe('ERR LEVELS takes 32 values');
    expect(await board.control(`LEVELS ${'2500 '.repeat(31)}9000`)).toMatch(/^ERR levels must be millivolts/);
    const s = await board.stats();
    expect(s.cycles).toBeGreaterThan(0);
    expect(s.simms).toBeGreaterThan(0);
    expect(s.scans).toBeGreaterThan(0);
  });

  it("LEVELS sets every sensor output (the host model, already clipped to its sensor's span), only kept inside 0–5 V; LEVELS OFF goes back", async () => {
    const mv = Array.from({ length: 32 }, (_, i) => (i === 0 ? 4600 : i === 1 ? 400 : 1000 + 100 * i));
    expect(await board.control(`LEVELS ${mv.join(' ')}`)).toBe('OK');
    const f = await board.frameAfter(5);
    // simavr converts as floor(vin × 1023 / vref), not the ATmega's vin × 1024 / vref: 4600 mV reads 941.16 less up to 1 by
    // the floor (measured over 60 frames: 940 one time in three, 941 otherwise), so the expectation is simavr's own
    const counts = (millivolts: number) => (millivolts * 1023) / 5000 - 0.5;
    expect(Math.abs(f.values[0] - counts(4600))).toBeLessThanOrEqual(READ_BACK); // a DRV5055A3's king: 940–941
    expect(Math.abs(f.values[1] - counts(400))).toBeLessThanOrEqual(READ_BACK); // 81
    for (let i = 2; i < 32; i++) expect(Math.abs(f.values[i] - counts(mv[i])), `square ${i + 1}`).toBeLessThanOrEqual(READ_BACK);
    expect(await board.control('LEVELS OFF')).toBe('OK');
    const g = await board.frameAfter(5);
    for (let s = 1; s <= 32; s++) expect(Math.abs(g.values[s - 1] - base[s - 1])).toBeLessThanOrEqual(UNCHANGED);
  });

  it('has switched off the A0/A1 digital input buffers (DIDR0) and runs with the watchdog on, never tripping it', async () => {
    let s = await board.stats();
    while (s.simms < 1500) {
      await board.frameAfter(10); // run well past the 500 ms watchdog timeout
      s = await board.stats();
    }
    expect(s.didr0 & 0b11).toBe(0b11); // ADC0D | ADC1D
    expect(s.wdtcsr & 0b1000).toBe(0b1000); // WDE: the watchdog resets the chip if the loop ever stops
    // a watchdog reset would reboot the firmware: a new unasked identity line and seq back at 0
    const frames = board.lines.filter((b) => b.startsWith('F ')).map((b) => parseFrame(b)!.seq);
    let restarts = 0;
    for (let i = 1; i < frames.length; i++) if (frames[i] !== ((frames[i - 1] + 1) & 0xffff)) restarts++;
    expect(restarts).toBe(0);
  });

  it('BUZZ ILLEGAL gets OK BUZZ, RATE 0 gets E BADARG, checksummed commands work', async () => {
    let reply = board.waitFor((b) => b.startsWith('OK ') || b.startsWith('E '));
    board.send('BUZZ ILLEGAL');
    expect(await reply).toBe('OK BUZZ');
    reply = board.waitFor((b) => b.startsWith('OK ') || b.startsWith('E '));
    board.send('RATE 0');
    expect(await reply).toMatch(/^E BADARG /);
    reply = board.waitFor((b) => b.startsWith('OK ') || b.startsWith('E '));
    board.send('RATE 20*00');
    expect(await reply).toMatch(/^E CHECKSUM /);
    reply = board.waitFor((b) => b.startsWith('OK ') || b.startsWith('E '));
    board.send(withChecksum('RATE 20'));
    expect(await reply).toBe('OK RATE');
    const id = board.waitFor((b) => b.startsWith('I '));
    board.send('?');
    expect(await id).toMatch(/ rate=20 /);
  });
});

describe('the buzzer on the emulated board', () => {
  it('plays the illegal-move alert as three 2 kHz beeps of 110 ms, 180 ms apart, on pin D9', async () => {
    buildEmulator();
    const board = new EmulatedBoard();
    await board.start();
    try {
      expect(await board.control('BUZZ CLEAR')).toBe('OK');
      const reply = board.waitFor((b) => b.startsWith('OK ') || b.startsWith('E '));
      board.send('BUZZ ILLEGAL');
      expect(await reply).toBe('OK BUZZ');
      await board.frameAfter(80); // 0.8 s of the board's own time: the pattern lasts 0.47 s
      const rec = await board.control('BUZZ');
      const m = /^BUZZ notes=(\d+)((?: \d+Hz@\d+\+\d+)*)$/.exec(rec);
      expect(m, rec).not.toBeNull();
      const notes = m![2]
        .trim()
        .split(' ')
        .map((n) => n.match(/\d+/g)!.map(Number));
      expect(notes.length, rec).toBe(3);
      for (const [hz, , ms] of notes) {
        expect(hz, rec).toBeGreaterThanOrEqual(1980);
        expect(hz, rec).toBeLessThanOrEqual(2020);
        expect(ms, rec).toBeGreaterThanOrEqual(105);
        expect(ms, rec).toBeLessThanOrEqual(115);
      }
      for (let i = 1; i < 3; i++) expect(Math.abs(notes[i][1] - notes[i - 1][1] - 180), rec).toBeLessThanOrEqual(3);
    } finally {
      expect(await board.stop()).toBe(0);
    }
  }, 120_000);
});

describe('emulator harness robustness', () => {
  it('keeps running when nobody reads the pty, and exits 0 on QUIT', async () => {
    buildEmulator();
    const board = new EmulatedBoard();
    const path = await board.waitPty();
    expect(path).toMatch(/^\/dev\//);
    expect(await board.control('START')).toBe('OK');
    const s0 = await board.stats();
    // Waits on the emulator's own clock, not the wall clock: on a busy machine
    // simavr runs slower than real time, and that is not what is tested here.
    const after = async (simms: number) => {
      for (;;) {
        const s = await board.stats();
        if (s.simms > simms) return s;
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    await after(s0.simms + 800);
    // a client that opens the pty but never reads: output piles up, nothing blocks
    const fd = openSync(path, 'r+');
    const opened = await board.stats();
    const s1 = await after(opened.simms + 1500);
    closeSync(fd);
    const s2 = await after(s1.simms + 300);
    expect(s1.scans).toBeGreaterThan(opened.scans + 50);
    expect(s2.txbytes).toBeGreaterThan(s1.txbytes);
    expect(s2.dropped).toBeGreaterThan(0); // board output with no reader is discarded
    board.proc.stdin.write('QUIT\n');
    expect(await board.exited).toBe(0);
  }, 60_000);
});

describe('a first build on the emulated board: noise, the settling ghost, warm-up', () => {
  let board: EmulatedBoard;
  beforeAll(async () => {
    buildEmulator();
    board = new EmulatedBoard();
    await board.start();
  }, 120_000);
  afterAll(async () => {
    if (board) expect(await board.stop()).toBe(0);
  });

  /** n consecutive frames' readings */
  const frames = async (n: number) => {
    const out: number[][] = [];
    for (let k = 0; k < n; k++) out.push((await board.frameAfter(1)).values);
    return out;
  };

  it("frames scatter by the one documented figure: σ ≈ 1.5 counts per frame (FRAME_NOISE), the simulated board's too", async () => {
    expect(await board.control('SEED 11')).toBe('OK');
    await board.frameAfter(3);
    const f = await frames(200);
    let sum = 0,
      n = 0;
    for (let i = 0; i < 32; i++) {
      const xs = f.map((r) => r[i]);
      const mu = xs.reduce((a, b) => a + b, 0) / xs.length;
      sum += xs.reduce((a, x) => a + (x - mu) ** 2, 0);
      n += xs.length - 1;
    }
    const sigma = Math.sqrt(sum / n);
    console.log(`emulator: frame noise σ = ${sigma.toFixed(2)} counts over 200 frames × 32 squares (figure ${FRAME_NOISE.counts})`);
    // 6400 frames of squares: σ is measured to ≈ 1 %; the frame's scans per frame (≈ 1.8) vary a little with the loop
    expect(sigma).toBeGreaterThan(FRAME_NOISE.counts * 0.8);
    expect(sigma).toBeLessThan(FRAME_NOISE.counts * 1.2);
  });

  it('the first conversion after switching carries a quarter of the channel before; the firmware discards it and reads clean', async () => {
    // Scan order per channel c: mux 0 (square c+1) then mux 1 (square c+17), so square 17's first
    // conversion follows square 1's last: a king on 1 lifts it, an empty 1 does not.
    expect(await board.control('SET 1 0')).toBe('OK');
    await board.frameAfter(3);
    const clean = await frames(20);
    const peekOf = async () => (await board.control('PEEK 17')).split(' ').slice(1).map(Number);
    const quiet = await peekOf();
    expect(quiet.length).toBe(5); // one discarded + 4 averaged (firmware/src/config.h SCAN_SAMPLES)
    expect(await board.control('SET 1 2')).toBe('OK');
    await board.frameAfter(3);
    const p = await peekOf();
    const rest = p.slice(1).reduce((a, b) => a + b, 0) / 4;
    const king = await board.frameAfter(1);
    const kingMv = (king.values[0] * 5000) / 1023;
    const ghostMv = p[0] - rest;
    // a quarter of (king on 1 − empty 17), within the conversions' noise (σ 4.9 mV each, the visit's shared)
    expect(ghostMv).toBeGreaterThan(0.25 * (kingMv - rest) - 25);
    expect(ghostMv).toBeLessThan(0.25 * (kingMv - rest) + 25);
    expect(Math.abs(quiet[0] - quiet.slice(1).reduce((a, b) => a + b, 0) / 4)).toBeLessThan(0.25 * (kingMv - rest) - 100);
    // the frames of 17 do not move: the ghost only ever sits in the discarded conversion
    const lifted = await frames(20);
    const mean = (fs: number[][]) => fs.reduce((a, r) => a + r[16], 0) / fs.length;
    expect(Math.abs(mean(lifted) - mean(clean))).toBeLessThan(1.5); // means of 20 frames: σ ≈ 0.5 each
    expect(await board.control('SET 1 0')).toBe('OK');
  });

  it('warms up: each zero level drifts by its own coefficient along the exponential approach, in simulated time', async () => {
    // 8 °C with a 3 s time constant (a real board: 4 minutes), square 13 +10 mV/°C, 14 −10 mV/°C, the others none
    const drifts = Array.from({ length: 32 }, (_, i) => (i === 12 ? 10_000 : i === 13 ? -10_000 : 0));
    await board.frameAfter(3);
    const before = await frames(20);
    expect(await board.control(`WARMUP 8000 3000 ${drifts.join(' ')}`)).toBe('OK');
    let s = await board.stats();
    const start = s.simms;
    while (s.simms < start + 15_000) {
      await board.frameAfter(50);
      s = await board.stats();
    }
    // the harness's clock counts from power-on: by now the board is within e^(−5) of its +8 °C
    expect(s.warmmc).toBeGreaterThan(7900);
    const after = await frames(20);
    const mean = (fs: number[][], i: number) => fs.reduce((a, r) => a + r[i], 0) / fs.length;
    const counts = (8 * 10 * 1023) / 5000; // 80 mV ≈ 16.4 counts
    expect(mean(after, 12) - mean(before, 12)).toBeGreaterThan(counts - 2);
    expect(mean(after, 12) - mean(before, 12)).toBeLessThan(counts + 2);
    expect(mean(after, 13) - mean(before, 13)).toBeLessThan(-counts + 2);
    expect(mean(after, 13) - mean(before, 13)).toBeGreaterThan(-counts - 2);
    expect(Math.abs(mean(after, 14) - mean(before, 14))).toBeLessThan(1.5);
    expect(await board.control('WARMUP OFF')).toBe('OK');
  }, 120_000);
});

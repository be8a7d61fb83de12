// `crownhead doctor --live`: the grid is laid out as the board with each dark
// square's number beside its reading; on the simulated board the values it
// prints are the readings of the coins put down (a man on 9, a king on 14),
// the squares that moved are named; on a terminal each grid rewrites the last
// in place and the cursor comes back at the end; piped, plain grids; from the
// command line, Ctrl-C (SIGINT) ends it cleanly with status 0.
import { describe, expect, it } from 'vitest';
import { SimBoard } from '../../src/sensors/sim/board.ts';
import type { RawFrame } from '../../src/sensors/source.ts';
import { boardCell, gridLines, LiveGrid } from '../../src/doctor/live.ts';
import { shown } from './live-grid.ts';
import { runLive } from '../../src/cli/doctor-live.ts';
import { main } from '../../src/cli/main.ts';

describe('crownhead doctor --live', () => {
  it('lays the grid out as the board: 1–4 on the top row at the odd columns, 5–8 at the even ones', () => {
    const readings = Array.from({ length: 32 }, (_, i) => 500 + i);
    const lines = gridLines(readings);
    expect(lines).toHaveLength(8);
    expect(lines[0]).toBe('   ·      1: 500     ·      2: 501     ·      3: 502     ·      4: 503');
    expect(lines[1].startsWith(' 5: 504     ·      6: 505')).toBe(true);
    expect(lines[7]).toMatch(/^29: 528 .* 32: 531 +·$/);
    expect(boardCell(28)).toEqual([6, 7]);
  });

  it('shows the readings of coins put on the simulated board, and names the squares that moved (piped: plain grids)', async () => {
    const sim = new SimBoard({ clock: 'manual', seed: 4 });
    await sim.open();
    const out: string[] = [];
    let last: RawFrame | null = null;
    sim.onFrame((f) => (last = f));
    let stop!: () => void;
    const run = runLive({ source: sim, io: { out: (l) => out.push(l), err: () => {} }, stop: new Promise<void>((r) => (stop = r)) });
    sim.advance(1500);
    const empty9 = last!.readings[8];
    sim.place(9);
    sim.place(14);
    sim.place(14);
    sim.advance(3000);
    stop();
    expect(await run).toBe(5);
    await sim.close();
    const frame = last!.readings;
    expect(out.filter((l) => l.includes('live readings'))).toHaveLength(5);
    expect(out.some((l) => l.includes('\x1b'))).toBe(false);
    // the last grid (drawn at the last whole second) shows what the sensors read then, within the noise
    expect(Math.abs(shown(out, 9) - frame[8])).toBeLessThanOrEqual(8);
    expect(shown(out, 9) - empty9).toBeGreaterThan(100);
    expect(shown(out, 14)).toBeGreaterThan(shown(out, 9) + 30); // a king
    const moved = out.filter((l) => l.startsWith('moved since the start')).at(-1)!;
    expect(moved).toMatch(/^moved since the start: 9 \+\d+, 14 \+\d+$/);
    expect(out.filter((l) => l.startsWith('moved since the start'))[0]).toBe('moved since the start: none');
  });

  it('on a terminal redraws in place with plain ANSI and shows the cursor again at the end', () => {
    const g = new LiveGrid({ tty: true, everyMs: 200 });
    const r = Array(32).fill(512);
    const first = g.push(0, r)!;
    expect(first[0].startsWith('\x1b[?25l\x1b[2K')).toBe(true);
    expect(g.push(100, r)).toBeNull();
    const second = g.push(200, r)!;
    expect(second).toHaveLength(first.length);
    expect(second[0].startsWith(`\x1b[${first.length}F\x1b[2K`)).toBe(true);
    expect(second.slice(1).every((l) => l.startsWith('\x1b[2K'))).toBe(true);
    expect(g.finish()).toEqual(['\x1b[?25h']);
  });

  it('from the command line: the simulated board until Ctrl-C, then a clean exit', async () => {
    const out: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => out.push(l), tty: false };
    const done = main(['doctor', '--live', '--board', 'sim:2'], io);
    while (!out.some((l) => l.startsWith('moved since the start'))) await new Promise((r) => setTimeout(r, 20));
    process.emit('SIGINT');
    expect(await done).toBe(0);
    expect(out.some((l) => /^ 5:\s*\d+/.test(l))).toBe(true);
    expect(out.join('\n')).toMatch(/live readings, counts 0–1023, frame 1 — Ctrl-C to leave/);
    expect(process.listenerCount('SIGINT')).toBe(0);
  }, 20_000);
});

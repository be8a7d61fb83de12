// Recordings: a session recorded by the real service (--record) replays
// through tracking to the same game, alerts included, at full speed; the
// `crownhead replay` command prints them, and every notice (reminders too)
// with its level; bad recordings name the bad line.
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { replayRecording } from '../../src/cli/replay.ts';
import { main, type Io } from '../../src/cli/main.ts';
import { readOnePdn, tagValue } from '../../src/pdn/index.ts';
import { readRecording, RecordingError, RECORDING_MAGIC } from '../../src/tracking/recording.ts';
import { SimBoard } from '../../src/sensors/sim/index.ts';
import { removeTempDirs, startSimService, tempDir } from '../server/helpers.ts';

afterAll(removeTempDirs);

async function recordSession(file: string): Promise<string> {
  const sim = new SimBoard({ clock: 'manual', seed: 11 });
  const s = await startSimService({ board: { source: sim, record: file } });
  sim.advance(100);
  sim.setupStart();
  sim.advance(800);
  const step = (f: () => void, ms = 200) => {
    f();
    sim.advance(ms);
  };
  step(() => sim.lift(11));
  step(() => sim.place(15), 300);
  step(() => sim.lift(22));
  step(() => sim.place(18), 300);
  // An illegal move (Black moves backwards), then put right.
  step(() => sim.lift(15));
  step(() => sim.place(11), 2000);
  step(() => sim.lift(11));
  step(() => sim.place(15), 500);
  // 15x22.
  step(() => sim.lift(15));
  step(() => sim.place(22));
  step(() => sim.lift(18), 500);
  const pdn = s.service.session.pdn();
  await s.service.close();
  return pdn;
}

/** A recording whose board said a reminder: 11-15 played with the coin put down on 15 upside down. */
async function recordFlippedCoin(file: string): Promise<string[]> {
  const sim = new SimBoard({ clock: 'manual', seed: 11 });
  const s = await startSimService({ board: { source: sim, record: file } });
  const said: string[] = [];
  s.service.session.on((e) => {
    if (e.type === 'notice') said.push(`${e.level}: ${e.say}`);
  });
  sim.advance(100);
  sim.setupStart();
  sim.advance(800);
  sim.lift(11);
  sim.advance(150);
  sim.set(15, 1, { upsideDown: true });
  sim.advance(2000);
  await s.service.close();
  return said;
}

describe('recordings', () => {
  it('a session recorded by the service replays to the same game and the same alerts', async () => {
    const file = join(tempDir(), 'session.rec');
    const live = await recordSession(file);
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith(RECORDING_MAGIC + '\n')).toBe(true);
    const r = replayRecording(text);
    expect(r.frames).toBeGreaterThan(300);
    expect(readOnePdn(r.pdn).moves.map((m) => m.move.path)).toEqual(readOnePdn(live).moves.map((m) => m.move.path));
    expect(readOnePdn(r.pdn).moves.length).toBe(3);
    expect(r.alerts.map((a) => a.category)).toEqual(['backwards']);
    expect(r.alerts[0].t).toBeGreaterThan(0);
    // The PDN is dated from the recording's header, not the epoch.
    const started = JSON.parse(text.split('\n')[1]!).header.started as string;
    expect(tagValue(readOnePdn(r.pdn), 'Date')).toBe(started.slice(0, 10).replace(/-/g, '.'));
  });

  it('crownhead replay prints every alert with its time and the PDN, and writes --pdn', async () => {
    const dir = tempDir();
    const file = join(dir, 'session.rec');
    await recordSession(file);
    const out: string[] = [],
      err: string[] = [];
    const io: Io = { out: (l) => out.push(...l.split('\n')), err: (l) => err.push(l) };
    expect(await main(['replay', file, '--pdn', join(dir, 'out.pdn')], io)).toBe(0);
    expect(out[0]).toMatch(/^alert at \d+\.\d\d s \[backwards\]: A man cannot move backwards \(15 to 11\)\./);
    expect(out.join('\n')).toContain('1. 11-15 22-18 2. 15x22 *');
    expect(readFileSync(join(dir, 'out.pdn'), 'utf8')).toContain('1. 11-15 22-18 2. 15x22 *');
    expect(err.at(-1)).toMatch(/^\d+ frames, 1 alert$/);
  });

  // Reminders were left out: a replay for a bug report hid what the board said about a coin upside down.
  it('crownhead replay prints every notice the service said, reminders too, with its level and time', async () => {
    const dir = tempDir();
    const file = join(dir, 'flipped.rec');
    const said = await recordFlippedCoin(file);
    expect(said).toContain('reminder: The coin on 15 is upside down: turn it over.');
    const r = replayRecording(readFileSync(file, 'utf8'));
    expect(r.notices.map((n) => `${n.level}: ${n.message}`)).toEqual(said);
    const out: string[] = [];
    expect(await main(['replay', file], { out: (l) => out.push(...l.split('\n')), err: () => {} })).toBe(0);
    const lines = out.filter((l) => /^(reminder|info) at /.test(l));
    expect(lines).toHaveLength(said.length);
    expect(lines).toContainEqual(expect.stringMatching(/^reminder at \d+\.\d\d s: The coin on 15 is upside down: turn it over\.$/));
  });

  it('bad recordings are rejected with the line named; a torn last line is skipped', async () => {
    const good = `${RECORDING_MAGIC}\n{"header":{"board":"sim"}}\n`;
    expect(() => [...readRecording('hello\n')]).toThrow(/line 1: not a crownhead recording/);
    expect(() => [...readRecording(good + 'x F 0001 00*00\n')]).toThrow(/line 3: expected "<time> <frame line>"/);
    expect(() => [...readRecording(good + '12.5 F 0001 000*00\n')]).toThrow(/line 3: bad frame/);
    expect(() => [...readRecording(good + '{"what":1}\n')]).toThrow(RecordingError);
    expect([...readRecording(good + '12.5 F 00')].map((i) => i.kind)).toEqual(['header']);
    const dir = tempDir();
    writeFileSync(join(dir, 'bad.rec'), 'nope\n');
    const err: string[] = [];
    expect(await main(['replay', join(dir, 'bad.rec')], { out: () => {}, err: (l) => err.push(l) })).toBe(2);
    expect(err[0]).toMatch(/bad\.rec: line 1: not a crownhead recording/);
  });
});

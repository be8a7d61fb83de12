// The tournament's journal on disk: one JSON event per line, fsynced per
// append before the state changes; replaying it gives the same state; a torn
// last line is dropped, reported and cut off before the next append; a
// damaged line elsewhere stops the load with its line number; a full disk
// refuses the change and leaves no fragment; and a writer killed with
// SIGKILL in the middle of its appends loses nothing it acknowledged.

import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Tournament } from '../../src/tournament/index.ts';
import { readTournamentJournal, tournamentFile, tournamentFiles, TournamentJournal } from '../../src/tournament/journal.ts';
import { makeTournamentEvent, TournamentError, type TournamentEvent } from '../../src/tournament/events.ts';
import { FaultyFs } from '../storage/faulty-fs.ts';
import type { TournamentState } from '../../src/tournament/tournament.ts';
import { apply, scriptedEvent } from './helpers.ts';

const ROOT = join(import.meta.dirname, '../..');
const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'club-journal-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The first `n` scripted events. */
function script(n: number): TournamentEvent[] {
  const events: TournamentEvent[] = [];
  let s: TournamentState | null = null;
  for (let i = 0; i < n; i++) {
    const e = scriptedEvent(s, i);
    events.push(e);
    s = apply(s, e);
  }
  return events;
}

/** Writes the first `n` scripted events through a journal; returns its file and final state. */
function written(dir: string, n: number) {
  const [first, ...rest] = script(n);
  if (first.t !== 'create') throw new Error('script starts with create');
  const j = TournamentJournal.create(dir, first);
  for (const e of rest) j.append(e);
  j.close();
  return { file: tournamentFile(dir, 'kill9'), state: j.state };
}

describe('the tournament journal', () => {
  it('holds one JSON event per line, and replaying it gives the same state', () => {
    const dir = tempDir();
    const { file, state } = written(dir, 60);
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines).toHaveLength(61);
    expect(lines[60]).toBe('');
    expect(lines.slice(0, 60)).toEqual(script(60).map(makeTournamentEvent));
    writeFileSync(join(dir, 'tournament-notes.txt'), 'not a journal');
    expect(tournamentFiles(dir)).toEqual([file]);
    const again = TournamentJournal.open(file);
    expect(again.torn).toBeNull();
    expect(again.state).toEqual(state);
    expect(state.played.length).toBeGreaterThan(1);
    again.close();
  });

  it('refuses to create over an existing tournament, and journals nothing for a refused event', () => {
    const dir = tempDir();
    const { file } = written(dir, 8);
    const first = script(1)[0];
    if (first.t !== 'create') throw new Error('script starts with create');
    expect(() => TournamentJournal.create(dir, first)).toThrow(/already exists/);
    const before = readFileSync(file, 'utf8');
    const j = TournamentJournal.open(file);
    expect(() => j.append({ t: 'rename-player', at: 1, by: 'a', player: 99, name: 'X' })).toThrow('no player number 99 (there are 6)');
    j.close();
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('takes over a file a killed creation left with nothing but a torn line', () => {
    const dir = tempDir();
    const [first] = script(1);
    if (first.t !== 'create') throw new Error('script starts with create');
    writeFileSync(tournamentFile(dir, 'kill9'), makeTournamentEvent(first).slice(0, 30));
    expect(() => TournamentJournal.open(tournamentFile(dir, 'kill9'))).toThrow(/is empty: it has no create event/);
    const j = TournamentJournal.create(dir, first);
    expect(j.torn).toMatchObject({ line: 1, offset: 0, bytes: 30 });
    j.close();
    expect(readFileSync(tournamentFile(dir, 'kill9'), 'utf8')).toBe(`${makeTournamentEvent(first)}\n`);
  });

  it('drops a torn last line, says so, and appends after the last whole event', () => {
    const dir = tempDir();
    const { file, state } = written(dir, 20);
    const whole = readFileSync(file);
    const next = makeTournamentEvent(script(21)[20]);
    appendFileSync(file, next.slice(0, 17));
    const read = readTournamentJournal(readFileSync(file));
    expect(read.torn).toEqual({ line: 21, offset: whole.length, bytes: 17, excerpt: next.slice(0, 17) });
    const j = TournamentJournal.open(file);
    expect(j.torn?.line).toBe(21);
    expect(j.state).toEqual(state);
    expect(readFileSync(file).equals(whole)).toBe(true);
    j.append(script(21)[20]);
    j.close();
    expect(readFileSync(file, 'utf8')).toBe(`${whole.toString('utf8')}${next}\n`);
    expect(TournamentJournal.open(file).state.log).toEqual(script(21));
  });

  it('rejects a damaged middle line with its line number, and an event the core refuses likewise', () => {
    const dir = tempDir();
    const { file } = written(dir, 12);
    const lines = readFileSync(file, 'utf8').split('\n');
    writeFileSync(file, [...lines.slice(0, 6), lines[6].slice(0, 20) + '#' + lines[6].slice(21), ...lines.slice(7)].join('\n'));
    expect(() => TournamentJournal.open(file)).toThrow(new RegExp(`^${file} line 7: not a tournament event: `));
    writeFileSync(file, [...lines.slice(0, 6), lines[2], ...lines.slice(7)].join('\n'));
    expect(() => TournamentJournal.open(file)).toThrow(`${file} line 7 (add-player): player 2 is already named "Player 2"`);
    // A blank line (an editor's) is skipped, and the line numbers stay the file's.
    writeFileSync(file, [...lines.slice(0, 3), '', ...lines.slice(3, 6), lines[2], ...lines.slice(7)].join('\n'));
    expect(() => TournamentJournal.open(file)).toThrow(`${file} line 8 (add-player): player 2 is already named "Player 2"`);
    try {
      TournamentJournal.open(file);
    } catch (e) {
      expect((e as TournamentError).code).toBe('bad-journal');
    }
  });

  it('on a full disk refuses the change, leaves no fragment, and takes it once there is room', () => {
    const dir = tempDir();
    const faulty = new FaultyFs();
    const events = script(10);
    let now = 0;
    const t = Tournament.create(
      dir,
      { id: 'kill9', name: 'Club', system: 'round-robin', rounds: 10, double: true, ballots: 'acf', seed: 11 },
      { now: () => now++, fs: faulty.fs },
    );
    for (let i = 1; i < 7; i++) t.addPlayer(`Player ${i}`, 'arbiter');
    const before = readFileSync(t.file);
    faulty.fill(10);
    expect(() => t.pairNextRound('arbiter')).toThrow(/ENOSPC/);
    expect(t.currentRound()).toBe(0);
    expect(readFileSync(t.file).equals(before)).toBe(true);
    faulty.free();
    t.pairNextRound('arbiter');
    expect(t.currentRound()).toBe(1);
    t.close();
    const again = Tournament.open(t.file, { now: () => now });
    expect(again.state.played).toEqual(t.state.played);
    expect(again.state.played[0].pairings.map((p) => [p.black, p.white])).toEqual(
      (events[7] as Extract<TournamentEvent, { t: 'pair-round' }>).pairings.map((p) => [p.black, p.white]),
    );
    again.close();
  });

  it('loses nothing acknowledged when the writer is killed with SIGKILL mid-way, and the next writer goes on', async () => {
    const dir = tempDir();
    const file = tournamentFile(dir, 'kill9');
    for (const killAt of [25, 80, 140]) {
      const acked = await runUntil(dir, killAt);
      expect(acked).toBeGreaterThanOrEqual(killAt);
      const j = TournamentJournal.open(file);
      const n = j.state.log.length;
      expect(n).toBeGreaterThanOrEqual(acked);
      // Every event is the scripted one: nothing lost, nothing doubled, nothing out of order.
      expect(j.state.log).toEqual(script(n));
      j.close();
    }
  });
});

/** Runs the child writer until it has acknowledged `k` events in all, SIGKILLs it, and returns the last acknowledgement it printed. */
function runUntil(dir: string, k: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/run-ts.js'), join(ROOT, 'test/tournament/journal-child.ts'), dir], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let acked = 0;
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d) => {
      out += d;
      for (const m of out.matchAll(/ack (\d+)\n/g)) acked = Math.max(acked, Number(m[1]));
      out = out.slice(out.lastIndexOf('\n') + 1);
      if (acked >= k && child.exitCode === null && !child.killed) child.kill('SIGKILL');
    });
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(acked);
      else reject(new Error(`the writer stopped by itself (${code}): ${err}`));
    });
  });
}

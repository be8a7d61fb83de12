// The retraction rule through a real recording: a tournament session on the
// simulated board, recorded by the service (--record), replayed by
// `crownhead replay`: the illegal move names its piece, the correction made
// with another piece is refused, and the same piece is then accepted.
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { replayRecording } from '../../src/cli/replay.ts';
import { main } from '../../src/cli/main.ts';
import { readOnePdn } from '../../src/pdn/index.ts';
import { SimBoard } from '../../src/sensors/sim/index.ts';
import { removeTempDirs, startSimService, tempDir } from '../server/helpers.ts';

afterAll(removeTempDirs);

async function recordSession(file: string, tournament: boolean): Promise<{ pdn: string; alerts: string[] }> {
  const sim = new SimBoard({ clock: 'manual', seed: 5 });
  const s = await startSimService({ board: { source: sim, record: file }, game: { tournament } });
  const alerts: string[] = [];
  s.service.session.on((e) => {
    if (e.type === 'alert') alerts.push(e.alert.category);
  });
  sim.advance(100);
  sim.setupStart();
  sim.advance(800);
  const step = (f: () => void, ms = 200) => {
    f();
    sim.advance(ms);
  };
  // 9 to 17: not a move (the man on 9 can go to 13 or 14).
  step(() => sim.lift(9));
  step(() => sim.place(17), 2000);
  // Put back, then corrected with another piece: 11-15.
  step(() => sim.lift(17));
  step(() => sim.place(9), 600);
  step(() => sim.lift(11));
  step(() => sim.place(15), 2500);
  if (tournament) {
    // Refused: 15 back to 11, then 9-13.
    step(() => sim.lift(15));
    step(() => sim.place(11), 600);
    step(() => sim.lift(9));
    step(() => sim.place(13), 600);
  }
  const pdn = s.service.session.pdn();
  await s.service.close();
  return { pdn, alerts };
}

const paths = (pdn: string) => readOnePdn(pdn).moves.map((m) => [m.move.from, ...m.move.path].join('-'));

describe('the retraction rule in a replayed recording', () => {
  it('tournament mode: the correction with another piece is refused, the same piece accepted; the replay agrees', async () => {
    const file = join(tempDir(), 'retraction.rec');
    const live = await recordSession(file, true);
    expect(live.alerts).toEqual(['not-diagonal', 'wrong-piece-retraction']);
    expect(paths(live.pdn)).toEqual(['9-13']);
    const r = replayRecording(readFileSync(file, 'utf8'));
    expect(r.alerts.map((a) => a.category)).toEqual(['not-diagonal', 'wrong-piece-retraction']);
    expect(r.alerts[0].message).toMatch(/Put 9 back and move it again: 9-13 or 9-14\.$/);
    expect(r.alerts[1].message).toMatch(
      /^The illegal move was made with the piece on 9, so it must be put right with that piece, not the one on 11: move it \(9-13 or 9-14\)\. .*Put 9 back and move it again: 9-13 or 9-14\.$/,
    );
    expect(paths(r.pdn)).toEqual(['9-13']);
    // The command prints them.
    const out: string[] = [];
    expect(await main(['replay', file], { out: (l) => out.push(l), err: () => {} })).toBe(0);
    expect(out.filter((l) => l.startsWith('alert at')).map((l) => /\[(.*?)\]/.exec(l)![1])).toEqual([
      'not-diagonal',
      'wrong-piece-retraction',
    ]);
  });

  it('outside tournament mode the correction stands, with a notice; --tournament replays it under the rule', async () => {
    const file = join(tempDir(), 'casual.rec');
    const live = await recordSession(file, false);
    expect(live.alerts).toEqual(['not-diagonal']);
    expect(paths(live.pdn)).toEqual(['11-15']);
    const r = replayRecording(readFileSync(file, 'utf8'));
    expect(paths(r.pdn)).toEqual(['11-15']);
    // (Besides the service's one-off word that this set cannot show colours.)
    expect(r.notices.map((n) => n.message).filter((m) => !/colour checks are off/.test(m))).toEqual([
      expect.stringMatching(/^The illegal move was made with the piece on 9, so it must be put right with that piece, not the one on 11/),
    ]);
    const strict = replayRecording(readFileSync(file, 'utf8'), { tournament: true });
    expect(strict.alerts.map((a) => a.category)).toEqual(['not-diagonal', 'wrong-piece-retraction']);
    expect(paths(strict.pdn)).toEqual([]);
  });
});

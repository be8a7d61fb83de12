// The arbiter's corrections: a move replaced (later moves kept
// while legal), moves deleted, a result decided, a clock set — each needs the
// control token, is journalled with who, when and why before it is announced,
// shows in the game's history (snapshot, page event, PDN comment) and survives
// a restart; the original moves stay in the journal.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJournal } from '../../src/storage/journal.ts';
import { readPdn } from '../../src/pdn/index.ts';
import { SimBoard } from '../../src/sensors/sim/board.ts';
import { corpusMoves, playOnSim, post, setUp, useServices } from './helpers.ts';

const { start, watched } = useServices();

describe("the arbiter's corrections", () => {
  it('replaces a move keeping the later ones, journals who and why, and shows it in the history and the PDN', async () => {
    const s = await watched();
    setUp(s.sim);
    const moves = corpusMoves(4);
    for (const m of moves) playOnSim(s.sim, m);
    const before = s.service.session.snapshot();
    expect(before.moves.map((m) => m.text)).toHaveLength(4);
    expect(before.moves.map((m) => m.text)).toEqual(['11-15', '24-20', '8-11', '28-24']);
    // 10-15 for 11-15 would make 8-11 impossible: refused, naming that move.
    const refused = await s.c.command({ name: 'correct', correction: { kind: 'replace-move', ply: 0, move: '10-15' } });
    expect(refused.type).toBe('error');
    expect(refused.message).toBe('move 2 (Black) is not legal once move 1 (Black) is 10-15: delete the moves from there first');
    expect(s.service.session.snapshot().moves).toHaveLength(4);
    // 11-16 for 11-15: the later moves stay legal and are kept.
    const r = await s.c.command({
      name: 'correct',
      correction: { kind: 'replace-move', ply: 0, move: '11-16' },
      by: 'J. Smith',
      reason: 'board misread',
    });
    expect(r.type).toBe('ok');
    const ev = await s.c.event('corrected');
    expect(ev.event.say).toBe('Arbiter: move 1 (Black) replaced: 11-15 was recorded, 11-16 was played. Put the pieces as shown.');
    const after = s.service.session.snapshot();
    expect(after.moves.map((m) => m.text)).toEqual(['11-16', '24-20', '8-11', '28-24']);
    expect(after.corrections).toHaveLength(1);
    expect(after.corrections![0]).toMatchObject({ by: 'J. Smith', reason: 'board misread' });
    // The PDN says so; the journal keeps the original move before the correction.
    const pdn = s.service.session.pdn().replace(/\s+/g, ' ');
    expect(pdn).toMatch(
      /\{Arbiter \(J\. Smith\) \d{4}-\d\d-\d\d \d\d:\d\d UTC: move 1 \(Black\) replaced: 11-15 was recorded, 11-16 was played — board misread\}/,
    );
    expect(readPdn(pdn).games[0]!.moves.map((m) => m.text)).toHaveLength(4);
    const journal = readJournal(readFileSync(join(s.dir, `${after.gameId}.journal`))).entries;
    const kinds = journal.map((e) => e.k);
    const at = kinds.indexOf('correction');
    expect(at).toBeGreaterThan(0);
    expect(kinds.slice(0, at).filter((k) => k === 'move')).toHaveLength(4); // the original four moves are still there
    expect(kinds.slice(at)).toEqual(expect.arrayContaining(['takeback', 'move']));
  });

  it('deletes moves, decides a result, sets a clock; refuses what cannot be done, naming why', async () => {
    const s = await watched({ game: { timeControl: '5m+3s' } });
    setUp(s.sim);
    for (const m of corpusMoves(3)) playOnSim(s.sim, m);
    const bad = await s.c.command({ name: 'correct', correction: { kind: 'delete-moves', ply: 7 } });
    expect(bad).toMatchObject({ type: 'error', code: 'nothing-to-undo' });
    expect(bad.message).toMatch(/there is no move 4 \(White\) to delete: the game has 3 moves/);
    expect((await s.c.command({ name: 'correct', correction: { kind: 'delete-moves', ply: 1 } })).type).toBe('ok');
    expect(s.service.session.snapshot().moves).toHaveLength(1);
    expect(
      (await s.c.command({ name: 'correct', correction: { kind: 'adjust-clock', side: 'white', ms: 125_000 }, reason: 'clock knocked' }))
        .type,
    ).toBe('ok');
    // (The clock runs on from the set time: White is to move.)
    const white = s.service.session.snapshot().clock!.white;
    expect(white).toBeLessThanOrEqual(125_000);
    expect(white).toBeGreaterThan(120_000);
    expect(
      (await s.c.command({ name: 'correct', correction: { kind: 'set-result', result: '0-1' }, reason: 'illegal conduct' })).type,
    ).toBe('ok');
    const snap = s.service.session.snapshot();
    expect(snap.result).toBe('0-1');
    expect(snap.outcome).toEqual({ winner: 'white', reason: 'arbiter' });
    expect(snap.corrections!.map((c) => c.say)).toEqual([
      '2 moves deleted from move 1 (White) on',
      "White's clock set to 2:05",
      'result set to 0-1',
    ]);
    expect(s.service.session.pdn()).toMatch(/\[Termination "White wins by the arbiter's decision"\]/);
    // A move text that is not legal is refused with the rules' reason.
    const illegal = await s.c.command({ name: 'correct', correction: { kind: 'replace-move', ply: 0, move: '1-5' } });
    expect(illegal.type).toBe('error');
    expect(illegal.message).toMatch(/move 1 \(Black\) cannot be 1-5:/);
  });

  it('needs the control token, and survives a restart', async () => {
    const sim = new SimBoard({ clock: 'manual', seed: 7 });
    const s = await start({ board: { source: sim }, http: { requireToken: true } });
    setUp(sim);
    for (const m of corpusMoves(2)) playOnSim(sim, m);
    const body = { name: 'correct', correction: { kind: 'delete-moves', ply: 1 }, by: 'TD' };
    const refused = await post(s.service.url + 'api/command', body);
    expect(refused.status).toBe(403);
    const ok = await post(s.service.url + 'api/command', body, { Authorization: `Bearer ${s.service.token}` });
    expect(ok.status).toBe(200);
    const id = s.service.session.gameId;
    await s.service.close();
    const again = await start({ storage: { gamesDir: s.dir } });
    const snap = again.service.session.snapshot();
    expect(snap.gameId).toBe(id);
    expect(snap.moves.map((m) => m.text)).toEqual(['11-15']);
    expect(snap.corrections).toEqual([expect.objectContaining({ by: 'TD', say: '1 move deleted from move 1 (White) on' })]);
  });
});

// Playing the computer through the real service: the engine in its worker
// thread answers, the page hears the computer's move (words to speak, the
// squares to show), the player carries it out on the (simulated) board and
// the board is checked against exactly that move; a takeback on the player's
// turn takes back the pair; a bad --computer setting is named.
import { describe, expect, it } from 'vitest';
import { Snapshot } from '../../src/protocol/v1.ts';
import { Game, legalMoves, moveText, type Move } from '../../src/rules/index.ts';
import { parseComputerSetting } from '../../src/game/computer.ts';
import { playOnSim, until, useServices } from './helpers.ts';
import { unwrap } from '../../src/common/result.ts';

const { watched } = useServices();

function find(game: Game, text: string): Move {
  const all = legalMoves(game.position);
  const m = all.find((x) => moveText(x, all) === text);
  if (!m) throw new Error(`no move ${text}`);
  return m;
}

/** The player's move: `text` where the position allows it, else the first legal move (the computer's replies vary). */
function pick(game: Game, text: string | undefined): Move {
  const all = legalMoves(game.position);
  return all.find((x) => moveText(x, all) === text) ?? all[0]!;
}

describe('playing the computer on the board', () => {
  it(
    'the computer (White, level 3) answers each move; the player carries it out; any other move is refused',
    { timeout: 60_000 },
    async () => {
      const s = await watched({ game: { computer: { side: 'white', level: 3 } }, engine: { thinkMs: 300 } });
      s.sim.setupStart();
      s.sim.advance(800);
      await s.c.event('ready');
      expect(s.service.session.snapshot().tags.White).toBe('Crownhead (level 3)');
      const game = new Game(s.service.session.game.start);
      // The computer's replies vary from game to game (a seeded choice from its
      // book, and a timed search), so the player's moves after the first are
      // whatever the position allows: the scripted one where legal, else the
      // first legal move. The refusal is tried at the first reply with a legal
      // alternative from another square (a capture is compulsory, so while one
      // is on there is no quiet alternative).
      const script = ['11-15', '8-11'];
      let refused = false;
      let rounds = 0;
      while (rounds < 2 || (!refused && rounds < 5)) {
        const m = pick(game, script[rounds]);
        rounds++;
        game.play(m);
        playOnSim(s.sim, m);
        await s.c.event('move');
        // The computer thinks (in its worker) and says its move.
        const said = await s.c.next((e) => e.type === 'event' && e.event.type === 'computer-move', "the computer's move", 20_000);
        const reply = find(game, said.event.text);
        expect(said.event.say).toMatch(/^The computer plays \d+ (to|takes) \d+.*: carry it out on the board\.$/);
        // The board's buzzer gives its "your move" pattern.
        await until(() => s.sim.view().buzzer === 'YOURMOVE', 'the your-move buzz');
        const snap = s.service.session.snapshot();
        expect(Snapshot.safeParse(snap).success).toBe(true);
        expect(snap.computer).toMatchObject({
          side: 'white',
          level: 3,
          thinking: false,
          move: { text: said.event.text, from: reply.from },
        });
        const alternatives = legalMoves(game.position).filter((x) => x.from !== reply.from);
        const other = alternatives.find((x) => !x.captures.length);
        if (rounds >= 2 && !refused && other) {
          refused = true;
          // Another white move instead: refused, with the computer's move named.
          playOnSim(s.sim, other);
          s.sim.advance(1000);
          const alert = await s.c.next((e) => e.type === 'event' && e.event.type === 'alert', 'the refusal');
          expect(alert.event.alert.category).toBe('not-computers-move');
          expect(alert.event.alert.message).toContain(`then play ${said.event.text}.`);
          // Put back as told.
          s.sim.lift(other.to);
          s.sim.place(other.from);
          s.sim.advance(800);
          await s.c.event('alert-cleared');
        }
        game.play(reply);
        playOnSim(s.sim, reply);
        const mv = await s.c.event('move');
        expect(mv.event.move.text).toBe(said.event.text);
      }
      expect(refused).toBe(true);
      expect(s.service.session.game.plies).toHaveLength(2 * rounds);
      // A takeback from the page on the player's turn takes back the pair.
      expect((await s.c.command({ name: 'takeback' })).type).toBe('ok');
      const tb = await s.c.event('takeback');
      expect(tb.event.say).toBe('Two moves taken back. Put the pieces back as shown.');
      expect(s.service.session.game.plies).toHaveLength(2 * rounds - 2);
      // A new game from the page without the computer: two players again.
      expect((await s.c.command({ name: 'new-game', computer: null })).type).toBe('ok');
      expect(s.service.session.snapshot().computer).toBeNull();
    },
  );

  it('the coach: a hint on request, said quietly with its squares; none in tournament mode', { timeout: 60_000 }, async () => {
    const s = await watched({ engine: { thinkMs: 200 } });
    s.sim.setupStart();
    s.sim.advance(800);
    await s.c.event('ready');
    expect((await s.c.command({ name: 'hint' })).type).toBe('ok');
    const hint = await s.c.next((e) => e.type === 'event' && e.event.type === 'notice' && /^Hint/.test(e.event.say), 'the hint', 20_000);
    const m = /^Hint for Black: (\d+)-(\d+)\.$/.exec(hint.event.say);
    expect(m, hint.event.say).not.toBeNull();
    expect(hint.event).toMatchObject({ level: 'info', squares: [Number(m![1]), Number(m![2])] });
    expect(legalMoves(s.service.session.game.position).some((x) => x.from === Number(m![1]) && x.to === Number(m![2]))).toBe(true);
    const t = await watched({ game: { tournament: true } });
    expect(await t.c.command({ name: 'hint' })).toMatchObject({
      type: 'error',
      code: 'not-allowed',
      message: 'no hints in tournament mode',
    });
  });

  it(
    'after the game: the analysis marks a blunder with the better move; shown in the snapshot, written into the PDN on request',
    { timeout: 60_000 },
    async () => {
      const s = await watched({ engine: { thinkMs: 150 } });
      // Black's 14-18 hands a man to 22x15 (14-17 or 1-5 keep it).
      expect((await s.c.command({ name: 'new-game', fen: 'B:W22,30:B1,14' })).type).toBe('ok');
      s.sim.clear();
      for (const sq of [1, 14]) s.sim.set(sq, 1, { color: 'black' });
      for (const sq of [22, 30]) s.sim.set(sq, 1, { color: 'white' });
      s.sim.advance(1000);
      await s.c.event('ready');
      const game = new Game(s.service.session.game.start);
      for (const text of ['14-18', '22x15']) {
        const m = find(game, text);
        game.play(m);
        playOnSim(s.sim, m);
        await s.c.event('move');
      }
      expect(await s.c.command({ name: 'analyse' })).toMatchObject({
        type: 'error',
        code: 'not-allowed',
        message: 'the analysis is for a finished game',
      });
      expect((await s.c.command({ name: 'resign', side: 'black' })).type).toBe('ok');
      expect((await s.c.command({ name: 'analyse' })).type).toBe('ok');
      const done = await s.c.next((e) => e.type === 'event' && e.event.type === 'analysis', 'the analysis', 30_000);
      expect(done.event.say).toMatch(/^Analysis done: 0 mistakes and 1 blunder, marked in the move list\.$/);
      const marks = s.service.session.snapshot().analysis!.marks;
      expect(marks).toHaveLength(1);
      expect(marks[0]).toMatchObject({ ply: 0, mark: '??' });
      expect(['14-17', '1-5', '1-6']).toContain(marks[0].better);
      const plain = await (await fetch(new URL('/api/current.pdn', s.service.url))).text();
      expect(plain).not.toContain('??');
      const annotated = await (await fetch(new URL('/api/current.pdn?annotated=1', s.service.url))).text();
      expect(annotated).toContain('14-18??');
      expect(annotated).toContain(`{Blunder: ${marks[0].better} was better`);
    },
  );

  it("the evaluation bar: the engine's score after each move, for every page; off in tournament mode", { timeout: 60_000 }, async () => {
    const s = await watched({ engine: { thinkMs: 150 } });
    s.sim.setupStart();
    s.sim.advance(800);
    await s.c.event('ready');
    expect((await s.c.command({ name: 'evaluation', on: true })).type).toBe('ok');
    const scored = () =>
      s.c.next((e) => e.type === 'event' && e.event.type === 'evaluation' && e.state.evaluation?.score !== null, 'a score', 20_000);
    const first = await scored();
    expect(first.state.evaluation.text).toMatch(/^(equal|Black \+\d\.\d\d|White \+\d\.\d\d)$/);
    expect(Snapshot.safeParse(first.state).success).toBe(true);
    // After a move, the new position is scored.
    const game = new Game(s.service.session.game.start);
    const m = find(game, '11-15');
    playOnSim(s.sim, m);
    await s.c.event('move');
    const second = await scored();
    expect(typeof second.state.evaluation.score).toBe('number');
    expect((await s.c.command({ name: 'evaluation', on: false })).type).toBe('ok');
    expect(s.service.session.snapshot().evaluation).toBeNull();
    const t = await watched({ game: { tournament: true } });
    expect(await t.c.command({ name: 'evaluation', on: true })).toMatchObject({
      type: 'error',
      code: 'not-allowed',
      message: 'no evaluation bar in tournament mode',
    });
  });

  it("with the bar on, the computer's move does not wait out the evaluation's search", { timeout: 60_000 }, async () => {
    // Each search may take a minute; the computer (level 1) needs a moment. The evaluation of the
    // start position is running when the player moves: the computer's move must come at once,
    // not after that search and the next position's (two minutes).
    const s = await watched({ game: { computer: { side: 'white', level: 1 } }, engine: { thinkMs: 60_000 } });
    s.sim.setupStart();
    s.sim.advance(800);
    await s.c.event('ready');
    expect((await s.c.command({ name: 'evaluation', on: true })).type).toBe('ok');
    await until(() => s.service.session.snapshot().evaluation?.text === 'thinking…', 'the bar thinking');
    const game = new Game(s.service.session.game.start);
    // The first move comes while the engine is still starting; the second while it is well into
    // scoring the position the computer's reply left (the player's turn).
    for (const mine of ['11-15', '8-11']) {
      const m = pick(game, mine);
      game.play(m);
      playOnSim(s.sim, m);
      await s.c.event('move');
      const said = await s.c.next((e) => e.type === 'event' && e.event.type === 'computer-move', "the computer's move", 20_000);
      expect(said.event.say).toMatch(/^The computer plays /);
      const reply = find(game, said.event.text);
      game.play(reply);
      playOnSim(s.sim, reply);
      await s.c.event('move');
      if (mine === '11-15') {
        await until(() => s.service.session.snapshot().evaluation?.text === 'thinking…', 'the bar scoring the new position');
        await new Promise((r) => setTimeout(r, 1500));
      }
    }
    expect(s.service.session.game.plies).toHaveLength(4);
  });

  it('with a time control the computer keeps within its clock, whatever its time per move', { timeout: 60_000 }, async () => {
    // A minute per search, but 30 s on the clock for the whole game: the computer must answer in
    // about a thirtieth of what it has (less the time to carry its move out), not in a minute.
    const s = await watched({ engine: { thinkMs: 60_000 } });
    const fen = 'B:W18,21,22,24,25,27,28,30,31:B1,2,3,5,6,9,10,11,12';
    expect((await s.c.command({ name: 'new-game', fen, computer: { side: 'white', level: 10 }, timeControl: '30s' })).type).toBe('ok');
    s.sim.clear();
    const game = new Game(s.service.session.game.start);
    for (let sq = 1; sq <= 32; sq++) {
      const bit = 1 << (sq - 1);
      if (game.position.black & bit) s.sim.set(sq, 1, { color: 'black' });
      if (game.position.white & bit) s.sim.set(sq, 1, { color: 'white' });
    }
    s.sim.advance(1000);
    await s.c.event('ready');
    const m = legalMoves(game.position).find((x) => !x.captures.length)!;
    game.play(m);
    playOnSim(s.sim, m);
    await s.c.event('move');
    const said = await s.c.next((e) => e.type === 'event' && e.event.type === 'computer-move', "the computer's move", 20_000);
    expect(legalMoves(game.position).some((x) => moveText(x, legalMoves(game.position)) === said.event.text)).toBe(true);
    expect(s.service.session.snapshot().clock).toMatchObject({ flagged: null });
  });

  it('a --computer setting that is not SIDE:LEVEL is named', () => {
    expect(unwrap(parseComputerSetting('white:7'))).toEqual({ side: 'white', level: 7 });
    expect(() => unwrap(parseComputerSetting('white'))).toThrow(/"white" is not SIDE:LEVEL \(e\.g\. white:7\)/);
    expect(() => unwrap(parseComputerSetting('black:11'))).toThrow(/level 11 in "black:11": levels go from 1 to 10/);
  });
});

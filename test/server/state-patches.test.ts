// The pages' socket sends each event with what changed since the state that
// page was last sent (src/protocol/state-patch.ts), worked out page by page:
// a page that joins mid-game gets the whole state in its hello and patches
// that fit it from then on; every page folds them into the same state; a
// page that asks again (hello) gets the whole state and its next patch fits.

import { describe, expect, it } from 'vitest';
import { corpusMoves, playOnSim, setUp, until, useServices } from './helpers.ts';

const { start } = useServices();

describe("the pages' socket sends what changed", () => {
  it('pages that joined at different times fold the same state; the whole game is sent only in a hello', async () => {
    const s = await start();
    const early = await s.ws('ws');
    await early.next((m) => m.type === 'hello');
    setUp(s.sim);
    const moves = corpusMoves(20);
    for (const m of moves.slice(0, 10)) playOnSim(s.sim, m);
    await until(() => s.service.session.game.plies.length === 10, 'ten moves');
    await early.next(
      (m) => m.type === 'event' && m.event.type === 'move' && m.state.moves.length === 10,
      'the tenth move at the early page',
    );

    const late = await s.ws('ws');
    const hello = await late.next((m) => m.type === 'hello');
    expect(hello.state.moves).toHaveLength(10);
    for (const m of moves.slice(10)) playOnSim(s.sim, m);
    for (const c of [early, late])
      await c.next((m) => m.type === 'event' && m.event.type === 'move' && m.state.moves.length === 20, 'move 20');
    expect(early.held.snap).toEqual(late.held.snap);
    expect(early.held.snap.moves.map((m: { text: string }) => m.text)).toEqual(s.service.session.moveRecords().map((m) => m.text));
    for (const c of [early, late]) {
      expect(c.unfitted).toBe(0);
      const events = c.received.filter((m) => m.type === 'event');
      expect(events.length).toBeGreaterThanOrEqual(10);
      // Only a page's first event could carry the whole state (none here: each had its hello); the rest are patches.
      expect(events.every((m) => m.patch !== undefined)).toBe(true);
    }

    // Asked again (as a page does after a patch that did not fit): the whole state, and the next patch fits it.
    late.send({ v: 1, type: 'hello' });
    const again = await late.next((m) => m.type === 'state');
    expect(again.state.moves).toHaveLength(20);
    s.service.session.setTags({ Event: 'Club night' });
    const tagged = await late.next((m) => m.type === 'event' && m.patch?.base === again.rev, 'a patch on the state asked for');
    expect(tagged.patch.set).toHaveProperty('tags');
    expect(tagged.state.tags.Event).toBe('Club night');
    expect(late.unfitted).toBe(0);
  });
});

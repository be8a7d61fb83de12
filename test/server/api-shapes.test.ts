// Every JSON body the HTTP API answers is exactly its protocol schema
// (src/protocol/v1.ts): parsing it keeps every field (nothing extra, nothing
// missing), for each route that answers JSON and for the error of each kind
// (refused, unknown, bad request, bad file), on the real service after a game
// has been played and a new one started.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ApiErrorBody,
  ApiOkBody,
  ArchiveList,
  CommandReplyBody,
  GameListBody,
  GameRecord,
  ServerInfoBody,
  Snapshot,
} from '../../src/protocol/v1.ts';
import { corpusMoves, playOnSim, post, setUp, useServices } from './helpers.ts';

const { start } = useServices();

/** The body parsed with its schema, and checked to be nothing but what the schema holds. */
async function body<T>(res: Response, schema: { parse(x: unknown): T }, status = 200): Promise<T> {
  expect(res.status).toBe(status);
  const raw: unknown = await res.json();
  const parsed = schema.parse(raw);
  expect(parsed).toEqual(raw);
  return parsed;
}

describe('HTTP API bodies', () => {
  it('answers every JSON route in its protocol shape', async () => {
    const s = await start({ http: { requireToken: true, token: 'tok-1' }, game: { tags: { Black: 'Ann', White: 'Ben' } } });
    const session = s.service.session;
    const url = (p: string) => new URL(p, s.service.url).toString();
    const control = { Authorization: 'Bearer tok-1' };
    setUp(s.sim);
    const moves = corpusMoves(3);
    for (const m of moves) playOnSim(s.sim, m);
    expect(session.game.plies).toHaveLength(3);
    const played = session.gameId;
    const reply = await body(await post(url('/api/command'), { name: 'new-game', tags: { Black: 'Cy' } }, control), CommandReplyBody);
    expect(reply.state.gameId).not.toBe(played);
    writeFileSync(join(s.dir, 'scribble.pdn'), 'this is not a game\n');

    const state = await body(await fetch(url('/api/state')), Snapshot);
    expect(state.tags.Black).toBe('Cy');
    const info = await body(await fetch(url('/api/info')), ServerInfoBody);
    expect(info).toMatchObject({ sim: true, readOnly: true, storage: { ok: true } });
    const games = await body(await fetch(url('/api/games')), GameListBody);
    expect(games.current).toBe(session.gameId);
    expect(games.games.map((g) => g.id)).toContain(played);
    expect(games.skipped.map((f) => f.file)).toEqual(['scribble.pdn']);
    const archive = await body(await fetch(url('/api/archive.json')), ArchiveList);
    expect(archive.games.find((g) => g.id === played)).toMatchObject({ black: 'Ann', plies: 3, current: false });
    const record = await body(await fetch(url(`/api/games/${played}.json`)), GameRecord);
    expect(record.moves.map((m) => [m.from, m.to])).toEqual(moves.map((m) => [m.from, m.to]));
    await body(await fetch(url(`/api/games/${played}`), { method: 'DELETE', headers: control }), ApiOkBody);
  });

  it('answers every refusal and failure as ApiErrorBody', async () => {
    const s = await start({ http: { requireToken: true, token: 'tok-1' } });
    const url = (p: string) => new URL(p, s.service.url).toString();
    const control = { Authorization: 'Bearer tok-1' };
    writeFileSync(join(s.dir, 'broken.pdn'), '[Event "x"]\n1. 11-15 {unclosed\n');
    const errors: [Promise<Response>, number, string][] = [
      [post(url('/api/command'), { name: 'takeback' }), 403, 'forbidden'],
      [post(url('/api/command'), '{"name":', control), 400, 'bad-json'],
      [fetch(url('/api/command'), { method: 'POST', headers: control, body: 'x' }), 415, 'bad-content-type'],
      [post(url('/api/command'), { name: 'no-such-command' }, control), 400, 'unknown-command'],
      [fetch(url('/api/nothing-here')), 404, 'not-found'],
      [fetch(url('/api/state'), { method: 'PUT' }), 405, 'method-not-allowed'],
      [fetch(url('/api/games/nope.json')), 404, 'not-found'],
      [fetch(url('/api/games/nope.json?game=0')), 400, 'bad-request'],
      [fetch(url('/api/games/broken.json')), 422, 'bad-pdn'],
      [fetch(url('/api/games/nope'), { method: 'DELETE' }), 403, 'forbidden'],
      [fetch(url(`/api/games/${s.service.session.gameId}`), { method: 'DELETE', headers: control }), 409, 'not-allowed'],
      [fetch(url('/api/games/nope'), { method: 'DELETE', headers: control }), 404, 'not-found'],
    ];
    for (const [res, status, code] of errors) {
      const e = await body(await res, ApiErrorBody, status);
      expect(e.code).toBe(code);
      expect(e.message.length).toBeGreaterThan(10);
    }
  });
});

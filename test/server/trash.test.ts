// The archive's trash: a game deleted from the page waits in the
// trash (listed by GET /api/trash.json), can be restored by a page with
// control rights (POST /api/trash/:id/restore), and is emptied after
// TRASH_DAYS (time is an input to the listing).

import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TrashList } from '../../src/protocol/v1.ts';
import { Catalogue, Trash, TRASH_DAYS } from '../../src/storage/catalogue.ts';
import { setUp, tempDir, until, useServices } from './helpers.ts';

const { start } = useServices();
const DAY = 24 * 3600 * 1000;

describe('the trash', () => {
  it('keeps a deleted game, lists it, restores it with control rights; a restored game is in the archive again', async () => {
    const s = await start({ http: { requireToken: true, token: 'tok-1' } });
    const session = s.service.session;
    session.setTags({ Black: 'Ann', White: 'Ben' });
    setUp(s.sim);
    s.sim.advance(800);
    session.resign('white');
    const oldId = session.gameId;
    const pdnOf = (id: string) => join(s.dir, `${id}.pdn`);
    await until(() => existsSync(pdnOf(oldId)) && readFileSync(pdnOf(oldId), 'utf8').includes('[Result "1-0"]'), 'the resigned game saved');
    session.newGame();
    await until(() => existsSync(pdnOf(session.gameId)), 'the new game saved');
    const url = (p: string) => new URL(p, s.service.url).toString();
    const auth = { Authorization: 'Bearer tok-1' };
    const del = await fetch(url(`/api/games/${oldId}`), { method: 'DELETE', headers: auth });
    expect(await del.json()).toEqual({ ok: true });
    expect(existsSync(join(s.dir, `${oldId}.pdn`))).toBe(false);

    const trash = TrashList.parse(await (await fetch(url('/api/trash.json'))).json());
    expect(trash.days).toBe(TRASH_DAYS);
    expect(trash.games).toHaveLength(1);
    expect(trash.games[0]).toMatchObject({ id: oldId, black: 'Ann', white: 'Ben', result: '1-0' });
    expect(Date.now() - trash.games[0]!.deleted).toBeLessThan(DAY);

    // Restoring: read-only refused, unknown 404, then back in the folder and the archive list.
    expect((await fetch(url(`/api/trash/${oldId}/restore`), { method: 'POST' })).status).toBe(403);
    expect((await fetch(url('/api/trash/nope/restore'), { method: 'POST', headers: auth })).status).toBe(404);
    const back = await fetch(url(`/api/trash/${oldId}/restore`), { method: 'POST', headers: auth });
    expect(back.status).toBe(200);
    expect(existsSync(join(s.dir, `${oldId}.pdn`))).toBe(true);
    expect(existsSync(join(s.dir, `${oldId}.journal`))).toBe(true);
    const list = (await (await fetch(url('/api/archive.json'))).json()) as { games: { id: string; black: string }[] };
    expect(list.games.find((g) => g.id === oldId)).toMatchObject({ black: 'Ann' });
    expect(TrashList.parse(await (await fetch(url('/api/trash.json'))).json()).games).toEqual([]);
  });

  it(`empties games deleted more than ${TRASH_DAYS} days ago; a restore never overwrites a game in the folder`, async () => {
    const dir = join(tempDir(), 'games');
    mkdirSync(dir, { recursive: true });
    const pdn = (b: string) => `[Event "x"]\n[Black "${b}"]\n[White "w"]\n[Result "*"]\n\n11-15 *\n`;
    writeFileSync(join(dir, 'old.pdn'), pdn('Old'));
    writeFileSync(join(dir, 'new.pdn'), pdn('New'));
    const trash = new Trash(new Catalogue(dir, 0, () => undefined));
    const t0 = 1_800_000_000_000;
    await trash.keep('old', t0);
    await trash.keep('new', t0 + 20 * DAY);
    expect((await trash.list(t0 + 25 * DAY)).map((g) => [g.id, g.black])).toEqual([
      ['new', 'New'],
      ['old', 'Old'],
    ]);
    expect((await trash.list(t0 + 31 * DAY)).map((g) => g.id)).toEqual(['new']);
    expect(readdirSync(trash.dir).some((f) => f.endsWith('old.pdn'))).toBe(false);
    // new.pdn is still in the folder (only copied here): restoring it would overwrite it.
    await expect(trash.restore('new')).rejects.toThrow(/already in the games folder/);
  });
});

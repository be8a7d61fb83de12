// A friend who has no board, at the service: the board's player starts the
// pairing (POST /api/friend, control rights), the friend's page acts through
// its seat socket (/play/<token>/ws) and only for its side. Their move is the
// session's remote move, carried out on the (simulated) board; their takeback
// request and answer, resignation and rematch are theirs; the board's side
// refuses acting for them; the seat token is the seat's alone (neither access
// token opens it, nor it the board's socket); the link survives a restart;
// the seat's PDN is the board's, byte for byte.

import { describe, expect, it } from 'vitest';
import { legalMoves, type Move } from '../../src/rules/index.ts';
import { SimBoard } from '../../src/sensors/sim/board.ts';
import { farLink, renderFarPlayer } from '../../src/web/far-board.ts';
import { Client, type Msg } from '../harness/ws-client.ts';
import { playOnSim, setUp, tempDir, useServices, type SimService } from './helpers.ts';
import { join } from 'node:path';
import { existsSync } from 'node:fs';

const { start, clients } = useServices();
const TOKEN = 'control-token-for-friend-tests';
const WATCH = 'watch-token-for-friend-tests';

const auth = { authorization: `Bearer ${TOKEN}` };

async function api(s: SimService, path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(s.service.url + path.replace(/^\//, ''), init);
}

async function startFriend(s: SimService, body: Record<string, unknown>): Promise<{ link: string; token: string; svg: string }> {
  const r = await api(s, '/api/friend', {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(r.status).toBe(200);
  const j = (await r.json()) as { seat: { link: string; qrSvg: string } };
  return { link: j.seat.link, token: j.seat.link.split('/play/')[1]!, svg: j.seat.qrSvg };
}

async function seatSocket(s: SimService, token: string): Promise<{ c: Client; hello: Msg }> {
  const c = await s.ws(`play/${token}/ws`);
  clients.push(c);
  return { c, hello: await c.next((m) => m.type === 'seat', 'the seat') };
}

let ids = 0;
async function act(c: Client, a: Record<string, unknown>): Promise<Msg> {
  const id = `a${++ids}`;
  c.send({ v: 1, type: 'act', id, act: a });
  return c.next((m) => (m.type === 'ok' || m.type === 'error') && m.id === id, `reply to ${String(a.name)}`);
}

const service = (dir?: string) =>
  start({
    board: { source: new SimBoard({ clock: 'manual', seed: 7 }) },
    http: { requireToken: true, token: TOKEN, readToken: WATCH, publicUrl: 'https://club.example:8443' },
    ...(dir ? { storage: { gamesDir: dir } } : {}),
  });

const pathOf = (m: Move) => [m.from, ...m.path];

describe('a friend who has no board, at the service', () => {
  it('the seat token opens only the seat: no token or the watch token cannot start it, neither access token opens the seat, the seat token opens nothing else', async () => {
    const s = await service();
    expect(
      (await api(s, '/api/friend', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Bea"}' })).status,
    ).toBe(403);
    const watch = await api(s, '/api/friend', {
      method: 'POST',
      headers: { authorization: `Bearer ${WATCH}`, 'content-type': 'application/json' },
      body: '{"name":"Bea"}',
    });
    expect(watch.status).toBe(403);
    const bad = await api(s, '/api/friend', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{"name":""}',
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { code: string }).code).toBe('bad-message');
    const { link, token, svg } = await startFriend(s, { name: 'Bea', host: 'Ann' });
    expect(link).toBe(`https://club.example:8443/play/${token}`);
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);
    expect(svg).toMatch(/^<svg[^>]*viewBox="0 0 (\d+) \1"/);
    // The page of the seat: only for its token.
    expect((await api(s, `/play/${token}`)).status).toBe(200);
    expect((await api(s, `/play/${WATCH}`)).status).toBe(404);
    expect((await api(s, `/play/${TOKEN}`)).status).toBe(404);
    await expect(s.ws(`play/${WATCH}/ws`)).rejects.toThrow(/403/);
    await expect(s.ws(`play/${TOKEN}/ws`)).rejects.toThrow(/403/);
    // The seat token is not an access token: the board's socket and API refuse it.
    // (This machine's pages may watch without a token: the seat token adds nothing to that, and no control.)
    const board = await s.ws(`ws?token=${token}`);
    clients.push(board);
    expect((await board.next((m) => m.type === 'hello')).server.readOnly).toBe(true);
    expect(await board.command({ name: 'resign', side: 'black' })).toMatchObject({ type: 'error', code: 'forbidden' });
    expect(await board.command({ name: 'resign', side: 'black' }, { token })).toMatchObject({ type: 'error', code: 'forbidden' });
    const post = { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } };
    expect((await api(s, '/api/command', { ...post, body: '{"name":"resign","side":"black"}' })).status).toBe(403);
    expect((await api(s, '/api/friend', { headers: { authorization: `Bearer ${token}` } })).status).toBe(403);
    // A new pairing: the old link stops working.
    const again = await startFriend(s, { name: 'Cy' });
    expect(again.token).not.toBe(token);
    expect((await api(s, `/play/${token}`)).status).toBe(404);
    await expect(s.ws(`play/${token}/ws`)).rejects.toThrow(/403/);
  });

  it('the friend moves from the seat, the board player carries it out; each side acts only for its own; a takeback asked by each and agreed by the other; resign, rematch with colours swapped; one PDN', async () => {
    const s = await service();
    const { token } = await startFriend(s, { name: 'Bea', host: 'Ann' });
    const { c: seat, hello } = await seatSocket(s, token);
    expect(hello.seat).toEqual({ name: 'Bea', side: 'white', opponent: 'Ann' });
    const page = await s.ws(`ws?token=${TOKEN}`);
    clients.push(page);
    await page.next((m) => m.type === 'hello');
    const session = s.service.session;
    setUp(s.sim);
    expect(session.tracker.phase).toBe('play');

    // The board's page says where Bea plays from: a browser, not another board; her page closed is said so.
    const remote = session.snapshot().remote!;
    expect(remote.where).toBe('browser');
    expect(renderFarPlayer(remote, 'black')).toMatch(/Bea \(White, from a browser\) waits for your move/);
    expect(farLink({ ...remote, link: { state: 'offline', since: 0 } }, 40_000)).toMatch(
      /Bea(&#39;|')s page has been closed or offline for 40 s/,
    );

    // Not their turn: refused, named; malformed: named, the game intact.
    const early = legalMoves(session.game.position)[0]!;
    expect(await act(seat, { name: 'move', ply: 0, path: pathOf(early) })).toMatchObject({ type: 'error', code: 'not-their-turn' });
    seat.send('{"v":1,"type":"act","id":"x1","act":{"name":"move","ply":-1,"path":[1]}}');
    expect(await seat.next((m) => m.type === 'error' && m.id === 'x1')).toMatchObject({ code: 'bad-message' });
    seat.send('not json');
    expect(await seat.next((m) => m.type === 'error' && m.code === 'bad-json')).toBeTruthy();
    expect(session.game.plies).toHaveLength(0);

    // Ann (Black) moves on the board; Bea sees it.
    playOnSim(s.sim, early);
    await seat.next((m) => m.type === 'event' && m.event.type === 'move', 'the board move at the seat');
    // The board's page cannot act for Bea's side.
    for (const command of [
      { name: 'resign', side: 'white' },
      { name: 'offer-draw', side: 'white' },
      { name: 'takeback', side: 'white' },
    ])
      expect(await page.command(command)).toMatchObject({
        type: 'error',
        code: 'not-allowed',
        message: expect.stringMatching(/^Bea plays White from a browser: only they can .* from their page$/),
      });
    const resign = await api(s, '/api/command', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{"name":"resign","side":"white"}',
    });
    expect(resign.status).toBe(409);
    expect(((await resign.json()) as { code: string }).code).toBe('not-allowed');

    // Bea's move: not from the board's page (it comes from hers); then from hers: the board's page is told to carry it out; a copy is dropped.
    const reply = legalMoves(session.game.position)[0]!;
    expect(await page.command({ name: 'remote-move', ply: 1, path: pathOf(reply) })).toMatchObject({
      type: 'error',
      code: 'not-allowed',
      message: 'Bea plays White from a browser: only they can move for White, from their page',
    });
    expect(await act(seat, { name: 'move', ply: 1, path: pathOf(reply) })).toMatchObject({ type: 'ok' });
    const told = await page.event('remote-move');
    expect(told.event.say).toContain('Bea plays');
    expect(await act(seat, { name: 'move', ply: 1, path: pathOf(reply) })).toMatchObject({ type: 'ok' });
    const waiting = await seat.next((m) => m.type === 'event' && m.event.type === 'remote-move');
    expect(waiting.state.remote.move.from).toBe(reply.from);
    playOnSim(s.sim, reply);
    await seat.next((m) => m.type === 'event' && m.event.type === 'move' && m.state.moves.length === 2, 'the friend move played');

    // Ann moves, then asks to take it back; Bea agrees at the seat.
    const third = legalMoves(session.game.position)[0]!;
    playOnSim(s.sim, third);
    await seat.next((m) => m.type === 'event' && m.event.type === 'move' && m.state.moves.length === 3);
    expect(await page.command({ name: 'takeback', side: 'black' })).toMatchObject({ type: 'ok' });
    const asked = await seat.next((m) => m.type === 'event' && m.event.type === 'takeback-offer');
    expect(asked.state.takebackOffer).toBe('black');
    expect(await page.command({ name: 'takeback-answer', accept: true })).toMatchObject({ type: 'error', code: 'not-allowed' });
    expect(await act(seat, { name: 'takeback-answer', accept: true })).toMatchObject({ type: 'ok' });
    await seat.next((m) => m.type === 'event' && m.event.type === 'takeback');
    expect(session.game.plies).toHaveLength(2);
    setUp(s.sim, session.game.position);

    // Bea asks to take her move back; Ann agrees on the board's page.
    expect(await act(seat, { name: 'takeback' })).toMatchObject({ type: 'ok' });
    const theirs = await page.next((m) => m.type === 'event' && m.event.type === 'takeback-offer' && m.event.side === 'white');
    expect(theirs.event.say).toContain('Bea asks to take back');
    expect(await act(seat, { name: 'takeback-answer', accept: true })).toMatchObject({ type: 'error', code: 'no-offer' });
    expect(await page.command({ name: 'takeback-answer', accept: true })).toMatchObject({ type: 'ok' });
    await seat.next((m) => m.type === 'event' && m.event.type === 'takeback' && m.state.moves.length === 1);
    setUp(s.sim, session.game.position);

    // Bea resigns; a rematch swaps the colours and keeps the seat.
    expect(await act(seat, { name: 'rematch' })).toMatchObject({ type: 'error', code: 'game-on' });
    expect(await act(seat, { name: 'resign' })).toMatchObject({ type: 'ok' });
    const over = await seat.next((m) => m.type === 'event' && m.event.type === 'game-over');
    expect(over.state.outcome).toEqual({ winner: 'black', reason: 'resignation' });
    expect(over.event.say).toMatch(/^Bea resigned, from their page\./);
    const boardPdn = await (await api(s, '/api/current.pdn', { headers: auth })).text();
    const seatPdn = await (await api(s, `/play/${token}/game.pdn`)).text();
    expect(seatPdn).toBe(boardPdn);
    expect(boardPdn).toContain('[White "Bea"]');
    expect(boardPdn).toContain('[Black "Ann"]');
    expect(await act(seat, { name: 'resign' })).toMatchObject({ type: 'error', code: 'game-over' });
    expect(await act(seat, { name: 'rematch' })).toMatchObject({ type: 'ok' });
    const next = await seat.next((m) => m.type === 'event' && m.event.type === 'new-game');
    expect(next.seat).toEqual({ name: 'Bea', side: 'black', opponent: 'Ann' });
    expect(next.state.tags).toMatchObject({ Black: 'Bea', White: 'Ann' });
    expect(next.event.say).toContain('Bea plays Black from a browser');
    expect(await page.command({ name: 'resign', side: 'black' })).toMatchObject({
      code: 'not-allowed',
      message: expect.stringContaining('from a browser'),
    });
    // Her page goes: the board's page is told, in words for a page, not a board.
    seat.close();
    expect((await page.event('remote-link')).event.say).toBe("Bea's page is closed or offline: their moves come when it is back.");
  });

  it('the link survives a restart of the service: the seat reconnects to the resumed game', async () => {
    const dir = join(tempDir(), 'games');
    const a = await service(dir);
    const { token } = await startFriend(a, { name: 'Bea', side: 'black', host: 'Ann' });
    expect(existsSync(join(dir, 'friend-seat.json'))).toBe(true);
    setUp(a.sim);
    const { c: seat } = await seatSocket(a, token);
    const first = legalMoves(a.service.session.game.position)[0]!;
    expect(await act(seat, { name: 'move', ply: 0, path: pathOf(first) })).toMatchObject({ type: 'ok' });
    playOnSim(a.sim, first);
    await seat.next((m) => m.type === 'event' && m.event.type === 'move');
    await a.service.close();

    const b = await service(dir);
    expect((await api(b, `/play/${token}`)).status).toBe(200);
    const { c: again, hello } = await seatSocket(b, token);
    expect(hello.seat).toEqual({ name: 'Bea', side: 'black', opponent: 'Ann' });
    expect(b.service.session.remote?.setting.where).toBe('browser');
    expect(hello.state.moves.map((m: { from: number }) => m.from)).toEqual([first.from]);
    // The board can close the seat: the link stops working, and the page open on it is told so and let go.
    const closed = await api(b, '/api/friend', { method: 'DELETE', headers: auth });
    expect(await again.next((m) => m.type === 'error')).toMatchObject({ code: 'seat-closed' });
    expect((await again.waitClosed()).code).toBe(1008);
    expect(((await closed.json()) as { seat: unknown }).seat).toBeNull();
    expect((await api(b, `/play/${token}`)).status).toBe(404);
  });

  it('a friend asked for at start (serve --friend) gets a seat and a new game; restarted with the seat kept, the game is not started again', async () => {
    const dir = join(tempDir(), 'games');
    const friend = { name: 'Bea', side: 'black' as const, host: 'Ann' };
    const a = await start({
      board: { source: new SimBoard({ clock: 'manual', seed: 7 }) },
      storage: { gamesDir: dir },
      friend,
      http: { publicUrl: 'http://10.0.0.5:8080' },
    });
    const token = a.service.seat!.token!;
    expect(a.service.seatLink()).toBe(`http://10.0.0.5:8080/play/${token}`);
    expect(a.service.session.snapshot().remote).toMatchObject({ side: 'black', name: 'Bea' });
    expect(a.service.session.tags).toMatchObject({ Black: 'Bea', White: 'Ann' });
    const game = a.service.session.gameId;
    await a.service.close();
    const b = await start({
      board: { source: new SimBoard({ clock: 'manual', seed: 7 }) },
      storage: { gamesDir: dir },
      friend: { name: 'Cy' },
    });
    expect(b.service.seat!.token).toBe(token);
    expect(b.service.session.gameId).toBe(game);
    expect(b.service.seatLink()).toBe(`${b.service.url}play/${token}`);
  });

  it('the seat socket is rate-limited like a page, and refuses a foreign page', async () => {
    const s = await start({
      board: { source: new SimBoard({ clock: 'manual', seed: 7 }) },
      friend: { name: 'Bea' },
      http: { ws: { commandRates: { game: { burst: 2, perSecond: 0.001 }, hand: { burst: 10, perSecond: 10 } } } },
    });
    const token = s.service.seat!.token!;
    await expect(s.ws(`play/${token}/ws`, { headers: { origin: 'http://evil.example' } })).rejects.toThrow(/403/);
    const { c } = await seatSocket(s, token);
    const replies = [];
    for (let i = 0; i < 3; i++) replies.push(await act(c, { name: 'offer-draw' }));
    expect(replies[2]).toMatchObject({ type: 'error', code: 'rate-limited' });
  });

  it("the time the board's player takes to carry out the friend's move is not on the friend's clock (Fischer)", async () => {
    let t = Date.UTC(2026, 10, 29, 12);
    const sim = new SimBoard({ clock: 'manual', seed: 7 });
    const s = await start({ board: { source: sim }, friend: { name: 'Bea' }, game: { timeControl: '5m+2s', now: () => t } });
    const { c } = await seatSocket(s, s.service.seat!.token!);
    const session = s.service.session;
    setUp(sim);
    playOnSim(sim, legalMoves(session.game.position)[0]!);
    expect(session.snapshot().clock).toMatchObject({ running: 'white', white: 300_000 });
    t += 10_000; // Bea thinks ten seconds
    const reply = legalMoves(session.game.position)[0]!;
    expect(await act(c, { name: 'move', ply: 1, path: pathOf(reply) })).toMatchObject({ type: 'ok' });
    t += 60_000; // Ann takes a minute to carry it out
    playOnSim(sim, reply);
    expect(session.game.plies).toHaveLength(2);
    expect(session.snapshot().clock).toMatchObject({ running: 'black', white: 300_000 - 10_000 + 2_000 });
  });

  it("draws: the friend's offer answered on the board's page, the board player's answered at the seat — declined, then agreed", async () => {
    const s = await start({ board: { source: new SimBoard({ clock: 'manual', seed: 7 }) }, friend: { name: 'Bea', host: 'Ann' } });
    const { c: seat } = await seatSocket(s, s.service.seat!.token!);
    const page = await s.ws();
    clients.push(page);
    await page.next((m) => m.type === 'hello');
    setUp(s.sim);
    expect(await act(seat, { name: 'accept-draw' })).toMatchObject({
      type: 'error',
      code: 'no-offer',
      message: 'Ann has not offered a draw',
    });
    expect(await act(seat, { name: 'offer-draw' })).toMatchObject({ type: 'ok' });
    expect(s.service.session.drawOffer).toBe('white');
    expect(await act(seat, { name: 'offer-draw' })).toMatchObject({ type: 'error', code: 'not-allowed' });
    expect(await page.command({ name: 'accept-draw', side: 'white' })).toMatchObject({ type: 'error', code: 'not-allowed' });
    expect(await page.command({ name: 'decline-draw' })).toMatchObject({ type: 'ok' });
    await seat.next((m) => m.type === 'event' && m.event.type === 'draw-offer' && m.state.drawOffer === null);
    expect(await page.command({ name: 'offer-draw', side: 'black' })).toMatchObject({ type: 'ok' });
    await seat.next((m) => m.type === 'event' && m.event.type === 'draw-offer' && m.state.drawOffer === 'black');
    expect(await act(seat, { name: 'decline-draw' })).toMatchObject({ type: 'ok' });
    expect(s.service.session.drawOffer).toBeNull();
    expect(await page.command({ name: 'offer-draw', side: 'black' })).toMatchObject({ type: 'ok' });
    expect(await act(seat, { name: 'accept-draw' })).toMatchObject({ type: 'ok' });
    const over = await seat.next((m) => m.type === 'event' && m.event.type === 'game-over');
    expect(over.state.outcome).toEqual({ winner: null, reason: 'agreement' });
    expect(over.state.result).toBe('1/2-1/2');
  });
});

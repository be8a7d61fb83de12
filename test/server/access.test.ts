// Who may watch and who may change the game: loopback pages freely (unless
// a token is required); other origins never, other host names (DNS
// rebinding) and other devices only with a token: the control token to play,
// the watch token to follow.

import { describe, expect, it } from 'vitest';
import { Access, bearerToken, isLoopbackHostHeader } from '../../src/server/access.ts';
import { post, rawRequest, useServices } from './helpers.ts';

const { start, clients } = useServices();
const SET_ROUND = JSON.stringify({ name: 'set-tags', tags: { Round: '2' } });

describe('access control', () => {
  it('takes commands from pages on this machine without a token, and needs none', async () => {
    const s = await start();
    expect(s.service.token).toBeNull();
    expect((await post(s.service.url + 'api/command', SET_ROUND)).status).toBe(200);
  });

  it('refuses commands from another origin or host name (CSRF, DNS rebinding)', async () => {
    const s = await start();
    const port = s.service.port;
    const cmd = (headers: Record<string, string>) =>
      rawRequest(s.service.url + 'api/command', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: SET_ROUND,
      });
    const evil = await cmd({ origin: 'http://evil.example' });
    expect(evil.status).toBe(403);
    expect(JSON.parse(evil.body).message).toMatch(/another origin or host name/);
    expect((await cmd({ host: `rebind.evil.example:${port}` })).status).toBe(403);
    expect((await cmd({ origin: 'null' })).status).toBe(403);
    expect((await cmd({ origin: `http://127.0.0.1:${port}` })).status).toBe(200);
    expect((await cmd({ host: `localhost:${port}`, origin: `http://localhost:${port}` })).status).toBe(200);
    // a page served elsewhere on this machine (another port) is another origin
    const sibling = await s.ws('ws', { origin: 'http://127.0.0.1:1' }).catch((e: Error) => e);
    expect(String(sibling)).toMatch(/403/);
  });

  it('with requireToken, needs the token for every command: Bearer header, ?token=, or the token field', async () => {
    const s = await start({ http: { requireToken: true, token: 'sekret-token' } });
    const u = s.service.url;
    expect(s.service.token).toBe('sekret-token');
    const none = await post(u + 'api/command', SET_ROUND);
    expect(none.status).toBe(403);
    expect((await none.json()).message).toMatch(/read-only without its control token.*\?token=/);
    const wrong = await post(u + 'api/command', SET_ROUND, { authorization: 'Bearer nope' });
    expect(wrong.status).toBe(403);
    expect((await wrong.json()).message).toMatch(/token is wrong/);
    expect((await post(u + 'api/command', SET_ROUND, { authorization: 'Bearer sekret-token' })).status).toBe(200);
    expect((await post(u + 'api/command?token=sekret-token', SET_ROUND)).status).toBe(200);
    // Pages on this machine may still watch without a token; only the control token plays.
    expect((await fetch(u + 'api/state')).status).toBe(200);
    expect((await (await fetch(u + 'api/info')).json()).readOnly).toBe(true);
    // Another device (its own Host name) needs a token to watch: the watch token reads.
    const fromLan = { host: `192.168.1.5:${s.service.port}` };
    const noRead = await rawRequest(u + 'api/state', { headers: fromLan });
    expect(noRead.status).toBe(403);
    const watch = s.service.readToken!;
    expect((await rawRequest(u + `api/state?token=${watch}`, { headers: fromLan })).status).toBe(200);
    expect(watch).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    expect((await fetch(u + `api/state?token=${watch}`)).status).toBe(200);
    expect((await (await fetch(u + `api/info?token=${watch}`)).json()).readOnly).toBe(true);
    expect((await (await fetch(u + 'api/info?token=sekret-token')).json()).readOnly).toBe(false);
    const watching = await post(u + 'api/command', SET_ROUND, { authorization: `Bearer ${watch}` });
    expect(watching.status).toBe(403);
    expect((await watching.json()).message).toMatch(/watch token only lets this device follow/);

    const local = await s.ws();
    clients.push(local);
    expect((await local.next()).server).toMatchObject({ readOnly: true, tokenRequired: true });

    const ro = await s.ws(`ws?token=${watch}`);
    clients.push(ro);
    const hello = await ro.next();
    expect(hello.server).toMatchObject({ readOnly: true, tokenRequired: true });
    expect(await ro.command({ name: 'takeback' })).toMatchObject({
      type: 'error',
      code: 'forbidden',
      message: expect.stringMatching(/token/),
    });
    expect(await ro.command({ name: 'set-tags', tags: { Round: '3' } }, { token: 'wrong' })).toMatchObject({
      code: 'forbidden',
      message: expect.stringMatching(/wrong/),
    });
    expect((await ro.command({ name: 'set-tags', tags: { Round: '3' } }, { token: 'sekret-token' })).type).toBe('ok');

    const rw = await s.ws('ws?token=sekret-token');
    clients.push(rw);
    expect((await rw.next()).server.readOnly).toBe(false);
    expect((await rw.command({ name: 'set-tags', tags: { Round: '4' } })).type).toBe('ok');
    expect(s.service.session.tags.Round).toBe('4');
  });

  it('makes a random token when listening beyond loopback; this machine still needs none', async () => {
    const s = await start({ http: { host: '0.0.0.0' } });
    expect(s.service.token).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    expect(s.service.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect((await post(s.service.url + 'api/command', SET_ROUND)).status).toBe(200);
    const other = new Access({ host: '0.0.0.0' });
    expect(other.token).not.toBe(s.service.token);
  });

  it('decides by address, host name, origin and token', () => {
    const a = new Access({ host: '0.0.0.0', token: 't0k' });
    const local = { remoteAddress: '::ffff:127.0.0.1', host: 'localhost:8080' };
    expect(a.canControl(local)).toBe(true);
    expect(a.canControl({ ...local, origin: 'http://localhost:8080' })).toBe(true);
    expect(a.canControl({ ...local, origin: 'http://localhost:9999' })).toBe(false);
    expect(a.canControl({ remoteAddress: '192.168.1.20', host: '192.168.1.5:8080' })).toBe(false);
    expect(a.canControl({ remoteAddress: '192.168.1.20', host: '192.168.1.5:8080', token: 't0k' })).toBe(true);
    expect(a.canControl({ remoteAddress: '192.168.1.20', host: '192.168.1.5:8080', token: 't0K' })).toBe(false);
    expect(isLoopbackHostHeader('[::1]:8080')).toBe(true);
    expect(isLoopbackHostHeader('127.0.0.1')).toBe(true);
    expect(isLoopbackHostHeader('127.0.0.1.evil.example')).toBe(false);
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeNull();
  });
});

describe('the broadcast (club mode)', () => {
  const remote = { remoteAddress: '192.168.1.9', host: '192.168.1.2:8080' };
  it('is read access: another device needs a token, unless the broadcast is public', () => {
    const closed = new Access({ host: '0.0.0.0' });
    expect(closed.canWatch(remote)).toBe(false);
    expect(closed.canWatch({ ...remote, token: closed.readToken })).toBe(true);
    const open = new Access({ host: '0.0.0.0', publicWatch: true });
    expect(open.canWatch(remote)).toBe(true);
    // Public watching grants nothing else: no reading of the API, no control.
    expect(open.canRead(remote)).toBe(false);
    expect(open.canControl(remote)).toBe(false);
  });
});

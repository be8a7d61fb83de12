// A page that floods commands: past its rate (a burst, then so many a second)
// each command is refused with a message saying why, the connection stays
// open, the service keeps answering, and other pages are not held back.
// The rates' clock is injected: nothing here depends on how fast the machine is.

import { describe, expect, it } from 'vitest';
import { useServices } from './helpers.ts';

const { start, clients } = useServices();

describe('command rate', () => {
  it('a flood of 1,000 new-game commands: the first burst runs, the rest are refused, the page stays connected', async () => {
    let now = 0;
    const s = await start({ http: { ws: { now: () => now } } });
    const flood = await s.ws();
    const other = await s.ws();
    clients.push(flood, other);
    await flood.next((m) => m.type === 'hello');
    await other.next((m) => m.type === 'hello');
    for (let i = 0; i < 1000; i++) flood.send({ v: 1, type: 'command', id: `n${i}`, command: { name: 'new-game' } });
    const replies = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => flood.next((m) => (m.type === 'ok' || m.type === 'error') && m.id === `n${i}`, `reply n${i}`)),
    );
    const ok = replies.filter((m) => m.type === 'ok');
    const refused = replies.filter((m) => m.type === 'error');
    expect(ok.length).toBe(20);
    expect(refused.length).toBe(980);
    expect(refused[0]).toMatchObject({ code: 'rate-limited' });
    expect(refused[0]!.message).toMatch(/too many commands from this page: at most 20 at once, then 5 a second; "new-game" was not run/);
    // Still connected and answered; another page has its own allowance.
    flood.send({ v: 1, type: 'ping' });
    expect((await flood.next((m) => m.type === 'pong')).type).toBe('pong');
    expect(flood.closed).toBeNull();
    expect((await other.command({ name: 'set-tags', tags: { Event: 'Club' } })).type).toBe('ok');
    // A second later, five more.
    now += 1000;
    const later = [];
    for (let i = 0; i < 6; i++) later.push(await flood.command({ name: 'takeback' }));
    expect(later.map((m) => m.code === 'rate-limited')).toEqual([false, false, false, false, false, true]);
  });

  it('the hand has its own, larger allowance: a game of hand moves is never refused', async () => {
    const s = await start({ http: { ws: { now: () => 0 } } });
    const c = await s.ws();
    clients.push(c);
    await c.next((m) => m.type === 'hello');
    for (let i = 0; i < 300; i++)
      c.send({ v: 1, type: 'command', id: `h${i}`, command: { name: 'hand', action: i % 2 ? 'place' : 'lift', square: 9 } });
    const replies = await Promise.all(
      Array.from({ length: 300 }, (_, i) => c.next((m) => (m.type === 'ok' || m.type === 'error') && m.id === `h${i}`)),
    );
    expect(replies.filter((m) => m.code === 'rate-limited')).toEqual([]);
    // …and the game's allowance is untouched by it.
    expect((await c.command({ name: 'new-game' })).type).toBe('ok');
  });
});

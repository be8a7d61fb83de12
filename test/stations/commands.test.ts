// Commands back to a station (#22 item 4): a command given on the hub (the
// board's page under /boards/ID/ on the hub, with the hub's token rules) goes
// to the station signed with the pairing secret, is run there, answered, and
// its record comes back mirrored; a command the station refuses is answered
// with the reason. Any other client on the broker cannot change a game: a
// forged command, an altered one and a replay of a real one are refused, and
// the game stays as it was.

import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedBroker } from '../../src/stations/broker.ts';
import type { Hub } from '../../src/stations/hub.ts';
import { boardTopic } from '../../src/stations/topics.ts';
import { parseStationMessage } from '../../src/stations/messages.ts';
import { signCommand } from '../../src/stations/signing.ts';
import type { CommandAnswer } from '../../src/protocol/stations-v1.ts';
import { Client } from '../harness/ws-client.ts';
import { GAMES, SECRET, hub, play, removeTempDirs, samePdn, setUpStart, station, until } from './fixture.ts';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
  removeTempDirs();
});

describe('commands from the hub to a station', () => {
  it('a command given on the hub runs on the station, signed; forged, altered and replayed ones are refused', async () => {
    const b = await startEmbeddedBroker({ port: 0 });
    closers.push(() => b.close());
    const a = await station(b.url, 'CMD-1', 31);
    closers.push(() => a.close());
    const h: Hub = await hub(b.url);
    closers.push(() => h.close());
    await until(() => h.room('CMD-1') !== null && a.client.connected, 'the station joining');
    setUpStart(a);
    play(a, GAMES[8]!, 0, 4);
    await until(() => samePdn(h, a), 'the first moves mirrored');

    // Another client on the broker watches the commands and the answers.
    const raw = await mqtt.connectAsync(b.url, { clientId: 'intruder', clean: true });
    closers.push(() => raw.endAsync());
    const cmds: Buffer[] = [];
    const answers: CommandAnswer[] = [];
    raw.on('message', (t, p) => {
      if (t.endsWith('/cmd')) cmds.push(Buffer.from(p));
      const r = parseStationMessage('answer', p);
      if (t.endsWith('/answer') && r.ok) answers.push(r.msg);
    });
    await raw.subscribeAsync([boardTopic('CMD-1', 'cmd'), boardTopic('CMD-1', 'answer')], { qos: 1 });

    // The board's page on the hub: names set there are set on the station, and come back.
    const page = await Client.connect(h.service!.url.replace(/^http/, 'ws') + 'boards/CMD-1/ws');
    closers.push(async () => page.close());
    await page.next((m) => m.type === 'hello');
    expect((await page.command({ name: 'set-tags', tags: { Black: 'Ada', White: 'Bea' } })).type).toBe('ok');
    await until(() => a.service.session.tags.Black === 'Ada', 'the station running the command');
    await until(() => h.room('CMD-1')!.session.tags.White === 'Bea' && samePdn(h, a), 'the names mirrored back');
    await until(() => answers.some((x) => x.ok), 'the station answering');
    expect(cmds.length).toBeGreaterThan(0);

    // A command the station refuses is answered with its reason (a draw nobody offered).
    h.command('CMD-1', { name: 'accept-draw', side: 'black' });
    await until(() => answers.some((x) => !x.ok), 'the refusal');
    expect(answers.find((x) => !x.ok)).toMatchObject({
      code: expect.not.stringMatching(/^(bad-command|not-signed)$/),
      message: expect.stringMatching(/draw/i),
    });
    const refusedBefore = answers.filter((x) => !x.ok).length;

    // Forged (a guessed secret), altered (a real signature on another body) and replayed: all refused, nothing changes.
    const before = a.service.session.pdn();
    const body = JSON.stringify({ kind: 'command', id: 'evil-1', command: { name: 'set-tags', tags: { Black: 'Mallory' } } });
    const forged = signCommand('guess', body, Date.now());
    const real = JSON.parse(cmds.find((c) => c.toString().includes('Ada'))!.toString()) as { body: string };
    const altered = { ...signCommand(SECRET, real.body, Date.now()), body };
    for (const m of [forged, altered]) await raw.publishAsync(boardTopic('CMD-1', 'cmd'), JSON.stringify(m), { qos: 1 });
    await raw.publishAsync(
      boardTopic('CMD-1', 'cmd'),
      cmds.find((c) => c.toString().includes('Ada'))!,
      { qos: 1 },
    );
    await until(() => answers.filter((x) => !x.ok).length >= refusedBefore + 3, 'three refusals');
    const refusals = answers.filter((x) => !x.ok).slice(refusedBefore);
    expect(refusals.map((x) => x.code)).toEqual(['not-signed', 'not-signed', 'not-signed']);
    expect(refusals.map((x) => x.message)).toEqual([
      expect.stringMatching(/signature does not match/),
      expect.stringMatching(/signature does not match/),
      expect.stringMatching(/replay/),
    ]);
    expect(a.service.session.tags.Black).toBe('Ada');
    expect(a.service.session.pdn()).toBe(before);
  });
});

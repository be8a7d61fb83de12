// Commands back to a station: a command given on the hub (the board's page
// under /boards/ID/ on the hub, with the hub's token rules) goes to the
// station sealed with the hub's key, is run there, answered, and its record
// comes back mirrored; a command the station refuses is answered with the
// reason. Any other client on the broker cannot change a game: a command
// sealed with another key, an altered one, a replay of a real one and a real
// one copied to another board's topic are refused, and the games stay as they were.

import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import type { Hub } from '../../src/stations/hub.ts';
import { boardTopic } from '../../src/stations/topics.ts';
import { readMessage, sealMessage } from '../../src/stations/messages.ts';
import { ephemeralIdentity } from '../../src/stations/identity.ts';
import type { CommandAnswer } from '../../src/protocol/stations-v1.ts';
import { Client } from '../harness/ws-client.ts';
import { GAMES, brokers, hub, play, removeTempDirs, samePdn, setUpStart, station, until } from './fixture.ts';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
  removeTempDirs();
});

describe.each(brokers(closers))('commands from the hub to a station (%s)', (_name, brokerUrl) => {
  it('a command given on the hub runs on the station, signed; forged, altered and replayed ones are refused', async () => {
    const b = { url: await brokerUrl() };
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
      const r = readMessage(t, p);
      if (r.ok && r.m.kind === 'answer') answers.push(r.m.msg);
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

    // A command the station refuses is answered with its reason (a draw nobody offered) — to the page that gave it too: no "ok".
    const refused = await page.command({ name: 'accept-draw', side: 'black' });
    expect(refused).toMatchObject({ type: 'error', message: expect.stringMatching(/board CMD-1's station refused it: .*draw/i) });
    await until(() => answers.some((x) => !x.ok), 'the refusal');
    expect(answers.find((x) => !x.ok)).toMatchObject({
      code: expect.not.stringMatching(/^(bad-command|not-signed)$/),
      message: expect.stringMatching(/draw/i),
    });
    const refusedBefore = answers.filter((x) => !x.ok).length;

    // Sealed with another key, altered (the hub's seal on another body), replayed, and copied to another board: refused, nothing changes.
    const other = await station(b.url, 'CMD-2', 32);
    closers.push(() => other.close());
    await until(() => h.room('CMD-2') !== null, 'a second board joining');
    const before = a.service.session.pdn();
    const command = { kind: 'command' as const, id: 'evil-1', command: { name: 'set-tags' as const, tags: { Black: 'Mallory' } } };
    const forged = sealMessage('CMD-1', 'cmd', command, ephemeralIdentity(), Date.now() * 1000).payload;
    const real = cmds.find((c) => c.toString().includes('Ada'))!;
    const sealed = JSON.parse(real.toString()) as { body: string };
    const altered = JSON.stringify({ ...sealed, body: sealed.body.replace('Ada', 'Mallory') });
    for (const m of [forged, altered, real]) await raw.publishAsync(boardTopic('CMD-1', 'cmd'), m, { qos: 1 });
    await raw.publishAsync(boardTopic('CMD-2', 'cmd'), real, { qos: 1 });
    await until(() => answers.filter((x) => !x.ok).length >= refusedBefore + 2, 'two refusals');
    const refusals = answers.filter((x) => !x.ok).slice(refusedBefore);
    expect(refusals.map((x) => x.code)).toEqual(['not-signed', 'not-signed']);
    expect(refusals.map((x) => x.message)).toEqual([
      expect.stringMatching(/not signed by the hub this station paired with/),
      expect.stringMatching(/replay/),
    ]);
    // (The altered one and the copy on CMD-2's topic do not even open: their seal does not check.)
    await raw.publishAsync(
      boardTopic('CMD-1', 'cmd'),
      sealMessage('CMD-1', 'cmd', { kind: 'resend', gameId: 'x', from: 0, to: 1 }, ephemeralIdentity(), Date.now() * 1000).payload,
      { qos: 1 },
    );
    await until(() => answers.filter((x) => !x.ok).length >= refusedBefore + 3, 'the marker refused after the others');
    expect(answers.filter((x) => !x.ok).length).toBe(refusedBefore + 3);
    expect(other.service.session.tags.Black).not.toBe('Ada');
    expect(a.service.session.tags.Black).toBe('Ada');
    expect(a.service.session.pdn()).toBe(before);

    // The station restarted on its own folder: the real command replayed again is still refused (the last counter run is on disk).
    await a.close();
    const again = await station(b.url, 'CMD-1', 31, a.dir);
    closers.push(() => again.close());
    await until(() => again.publisher.reporting, 'the station back');
    again.service.session.setTags({ Black: 'Zed' });
    const refusedNow = answers.filter((x) => !x.ok).length;
    await raw.publishAsync(boardTopic('CMD-1', 'cmd'), real, { qos: 1 });
    await until(() => answers.filter((x) => !x.ok).length > refusedNow, 'the replay after the restart refused');
    expect(answers.filter((x) => !x.ok).at(-1)?.message).toMatch(/not newer than the last command run \(a replay\)/);
    expect(again.service.session.tags.Black).toBe('Zed');
  });
});

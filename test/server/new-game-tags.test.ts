// Through the service: a new-game command with a tag the
// record derives from the game (FEN, SetUp, Result, GameType) is refused like
// set-tags refuses it, and the game in play and its saved record stay readable.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPdn } from '../../src/pdn/index.ts';
import { until, useServices } from './helpers.ts';

const services = useServices();

describe('new-game tags', () => {
  it.each([
    ['FEN', 'W:W18:B14'],
    ['SetUp', '1'],
    ['Result', '1-0'],
    ['GameType', '21'],
  ])('refuses %s, and the saved record stays readable', async (name, value) => {
    const s = await services.watched();
    const id = s.service.session.gameId;
    expect(await s.c.command({ name: 'new-game', tags: { [name]: value } })).toMatchObject({
      type: 'error',
      code: 'bad-request',
      message: expect.stringMatching(/set by the game/),
    });
    expect(s.service.session.gameId).toBe(id);
    expect((await s.c.command({ name: 'set-tags', tags: { Event: 'Club' } })).type).toBe('ok');
    const file = join(s.dir, `${id}.pdn`);
    await until(() => {
      try {
        return readFileSync(file, 'utf8').includes('Club');
      } catch {
        return false;
      }
    }, 'the PDN with the new tag');
    expect(readPdn(readFileSync(file, 'utf8')).errors).toEqual([]);
  });
});

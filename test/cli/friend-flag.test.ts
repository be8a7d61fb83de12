// `crownhead serve --friend NAME[:white|black]` and `--public-url URL`: the
// friend's seat asked for at start (side White unless said, the board's
// player named by the other side's tag), the public address the link is made
// on; a bad value named with its flag.

import { describe, expect, it } from 'vitest';
import { resolveServeSettings } from '../../src/cli/serve-settings.ts';

const opts = (...argv: string[]) => resolveServeSettings(['--games', '/tmp/crownhead-friend-flag', ...argv], {})!.options;

describe('serve --friend and --public-url', () => {
  it('--friend NAME plays White; :black takes Black; the board player is the other side tag', () => {
    expect(opts('--friend', 'Bea').friend).toEqual({ name: 'Bea', side: 'white' });
    expect(opts('--friend', 'Bea Lee:black', '--white', 'Ann').friend).toEqual({ name: 'Bea Lee', side: 'black', host: 'Ann' });
    expect(opts('--friend', 'Bea:WHITE', '--black', 'Ann').friend).toEqual({ name: 'Bea', side: 'white', host: 'Ann' });
    expect(opts().friend).toBeUndefined();
  });

  it('refuses an empty name and a friend with the computer, naming the flag', () => {
    expect(() => opts('--friend', ':white')).toThrow(/--friend: give the friend's name/);
    expect(() => opts('--friend', 'Bea', '--computer', 'white:3')).toThrow(/--friend: .*no computer/);
  });

  it('--public-url is an http(s) address, kept without its trailing slash', () => {
    expect(opts('--public-url', 'https://club.example:8443/').http?.publicUrl).toBe('https://club.example:8443');
    expect(() => opts('--public-url', 'club.example')).toThrow(/--public-url: "club.example" is not an address/);
    expect(() => opts('--public-url', 'ftp://club.example')).toThrow(/--public-url: .*http:\/\/ or https:\/\//);
  });
});

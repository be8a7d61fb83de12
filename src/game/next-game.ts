// The next game of a pairing at the table, as a request for a new game:
// the other side of the same ballot, or the next game with the first player
// alternating (a new ballot of the same kind, or the start position), the
// Round tag saying where the pairing stands, time control and rules kept —
// and a player at another board kept, changing colours as the names do, with
// a link the far board follows to start the same game there. Pure.

import { opposite, type GameOptions, type ReadonlyGame } from '../rules/index.ts';
import type { RemoteSetting } from '../protocol/v1.ts';
import { SessionError } from './errors.ts';

/** The next game's request (a table's NewGameRequest). */
export interface NextGame {
  tags: Record<string, string>;
  timeControl: string;
  tournament?: boolean;
  rules: GameOptions;
  random?: () => number;
  remote?: RemoteSetting;
  ballot?: number | 'random';
  elevenMan?: number | 'random';
  crossboardOnly?: boolean;
}

/** What the next game is made from: the game just played and how it was set up. */
export interface NextGameFrom {
  game: ReadonlyGame;
  tags: Record<string, string>;
  ballot: number | null;
  remote: RemoteSetting | null;
  gameId: string;
  crossboardOnly: boolean;
  /** the game's own tournament mode (a tournament's round), kept for its next game */
  tournament: boolean | undefined;
}

/**
 * After a game, the request for the next one: `other-side` plays the same
 * ballot again with the sides (and names) swapped — the second game of a
 * ballot pair; `next` starts the next game with the first player
 * alternating: a new ballot of the same kind (drawn at random) for ballot
 * games, the start position otherwise. The PDN Round says where it stands:
 * "pair.game" ("3.1", "3.2") for ballot pairs, the game number otherwise.
 * Time control and rules are kept.
 */
export function nextGameRequest(from: NextGameFrom, kind: 'other-side' | 'next', random?: () => number): NextGame {
  const t = from.tags;
  const eleven = /^11-man (\d+)$/.exec(t.Ballot ?? '');
  const isBallot = from.ballot !== null || eleven !== null;
  if (kind === 'other-side' && !isBallot)
    throw new SessionError('not-allowed', 'this game was not played from a ballot: there is no other side to play');
  const round = /^(\d+)(?:\.(\d+))?$/.exec((t.Round ?? '').trim());
  const pair = round ? Number(round[1]) : 1;
  const inPair = round?.[2] !== undefined ? Number(round[2]) : 1;
  const tags: Record<string, string> = {};
  for (const k of ['Event', 'Site']) if (t[k] !== undefined) tags[k] = t[k];
  // Next game: whoever moved first in the first game of this pair (or in this game) moves second.
  const keep = kind === 'next' && isBallot && inPair === 2;
  if ((keep ? t.Black : t.White) !== undefined) tags.Black = (keep ? t.Black : t.White)!;
  if ((keep ? t.White : t.Black) !== undefined) tags.White = (keep ? t.White : t.Black)!;
  const r = from.remote; // (a player at another board stays: colours change as the names do; the far board follows the link)
  const base = {
    timeControl: t.TimeControl ?? '',
    tournament: from.tournament,
    rules: { huffing: from.game.options.huffing, crownContinue: from.game.options.crownContinue },
    random,
    ...(r
      ? {
          remote: {
            side: keep ? r.side : opposite(r.side),
            name: r.name,
            link: `${from.gameId}>${kind}`,
            ...(r.where ? { where: r.where } : {}),
          },
        }
      : {}),
  };
  if (kind === 'other-side') {
    tags.Round = `${pair}.2`;
    return eleven ? { ...base, elevenMan: Number(eleven[1]), tags } : { ...base, ballot: from.ballot!, tags };
  }
  if (!isBallot) return { ...base, tags: { ...tags, Round: String(pair + 1) } };
  tags.Round = `${pair + 1}.1`;
  return eleven ? { ...base, elevenMan: 'random', tags } : { ...base, ballot: 'random', crossboardOnly: from.crossboardOnly, tags };
}

// A game's PDN tags: the one validator every path that sets tags goes
// through (the service's default tags, a new game's, set-tags from the page,
// the next game's, and a game restored from its journal). The tags the game
// writes itself (Result, FEN, SetUp, GameType) are refused: given by hand
// they would be written twice and make the record unreadable. Pure.

import { SessionError } from './errors.ts';

/** Limits on a game's tags (each one is in every journal record of the tags and every snapshot sent to every page). */
export const TAG_LIMITS = { count: 24, valueChars: 200, nameChars: 80, totalBytes: 4096 } as const;

/** Tags the record derives from the game itself (compared without case). */
export const RESERVED_TAGS: readonly string[] = ['Result', 'FEN', 'SetUp', 'GameType'];

/** Tags naming people and places: shorter values. */
const NAME_TAGS = new Set(['Black', 'White', 'Event', 'Site', 'Round', 'Annotator']);
const NAME = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;
const reserved = new Set(RESERVED_TAGS.map((t) => t.toLowerCase()));

/** Why one tag cannot be set, or null when it can. */
export function tagProblem(name: string, value: unknown): string | null {
  if (!NAME.test(name)) return `"${name}" is not a tag name`;
  if (reserved.has(name.toLowerCase())) return `tag ${name} is set by the game itself`;
  if (typeof value !== 'string') return `tag ${name}: value must be text of at most ${TAG_LIMITS.valueChars} characters`;
  if (/[\u0000-\u001f\u007f]/.test(value)) return `tag ${name}: line breaks and control characters are not allowed`;
  if (NAME_TAGS.has(name) && value.length > TAG_LIMITS.nameChars)
    return `tag ${name}: at most ${TAG_LIMITS.nameChars} characters (got ${value.length})`;
  if (value.length > TAG_LIMITS.valueChars) return `tag ${name}: at most ${TAG_LIMITS.valueChars} characters (got ${value.length})`;
  return null;
}

/**
 * Checks a change to a game's tags (an empty value clears a tag) and returns
 * the tags it makes; throws SessionError 'bad-request' naming the first
 * problem. `current`: the tags the change applies to.
 */
export function applyTags(current: Readonly<Record<string, string>>, change: Readonly<Record<string, string>>): Record<string, string> {
  const merged: Record<string, string> = { ...current };
  for (const [k, v] of Object.entries(change)) {
    const problem = tagProblem(k, v);
    if (problem) throw new SessionError('bad-request', problem);
    if (v === '') delete merged[k];
    else merged[k] = v;
  }
  const count = Object.keys(merged).length;
  if (count > TAG_LIMITS.count)
    throw new SessionError(
      'bad-request',
      `a game has at most ${TAG_LIMITS.count} tags (this change would make ${count}); clear some with an empty value first`,
    );
  const bytes = new TextEncoder().encode(JSON.stringify(merged)).length;
  if (bytes > TAG_LIMITS.totalBytes)
    throw new SessionError(
      'bad-request',
      `a game's tags take at most ${TAG_LIMITS.totalBytes} bytes in all (this change would make ${bytes})`,
    );
  return merged;
}

/**
 * Tags read back from a journal: the ones no path may set (an older version
 * let a new game take Result, FEN, SetUp or GameType) are dropped, so the
 * record is readable again; the rest are kept as they were.
 */
export function restoredTags(tags: Readonly<Record<string, string>>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [k, v] of Object.entries(tags)) if (NAME.test(k) && !reserved.has(k.toLowerCase()) && typeof v === 'string') kept[k] = v;
  return kept;
}

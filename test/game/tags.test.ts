// The tag validator on its own: what a change makes of a game's tags, the
// limits, and the clean-up of tags read back from a journal.

import { describe, expect, it } from 'vitest';
import { TAG_LIMITS, applyTags, restoredTags, tagProblem } from '../../src/game/tags.ts';

describe('tags', () => {
  it('applies a change: an empty value clears a tag; the input is not changed', () => {
    const current = { Black: 'Ann', White: 'Bo' };
    expect(applyTags(current, { White: '', Event: 'Club' })).toEqual({ Black: 'Ann', Event: 'Club' });
    expect(current).toEqual({ Black: 'Ann', White: 'Bo' });
  });

  it('names the first problem', () => {
    expect(tagProblem('Result', '1-0')).toMatch(/set by the game itself/);
    expect(tagProblem('setup', '1')).toMatch(/set by the game itself/);
    expect(tagProblem('1x', 'a')).toMatch(/not a tag name/);
    expect(tagProblem('Site', 'a\tb')).toMatch(/control characters/);
    expect(tagProblem('Black', 'x'.repeat(81))).toBe('tag Black: at most 80 characters (got 81)');
    expect(tagProblem('Note', 'x'.repeat(201))).toBe('tag Note: at most 200 characters (got 201)');
    expect(tagProblem('Note', 'x'.repeat(200))).toBeNull();
    const many = Object.fromEntries(Array.from({ length: TAG_LIMITS.count + 1 }, (_, i) => [`T${i}`, 'x']));
    expect(() => applyTags({}, many)).toThrow(/at most 24 tags/);
    const big = Object.fromEntries(Array.from({ length: 22 }, (_, i) => [`T${i}`, 'x'.repeat(199)]));
    expect(() => applyTags({}, big)).toThrow(/at most 4096 bytes/);
  });

  it('keeps what a journal holds but the tags no path may set', () => {
    expect(restoredTags({ Event: 'E', FEN: 'W:W18:B14', gametype: '21', Black: 'Ann' })).toEqual({ Event: 'E', Black: 'Ann' });
  });
});

// The sentences the program says, in English: list joining, square lists
// ("1–4, 6 and 9") and set-up / fix instructions grouped by kind of piece ("Put
// a black man on 1–12"). Shared by the tracking (alerts), the session and the
// server (what is spoken and logged) and the page (what is shown); not part of
// the protocol (messages carry the sentences made here). Pure, no imports
// beyond the model's types (src/model/board.ts), so the page bundle can use it.

import type { Fix } from '../model/board.ts';

/** "a, b and c" / "a, b or c": the one list joiner of every message. */
export function joinWords(items: readonly string[], conjunction: 'and' | 'or' = 'and'): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} ${conjunction} ${items[items.length - 1]}`;
}

/** "1–4, 6 and 9" from [1,2,3,4,6,9]. */
export function squareList(squares: readonly number[]): string {
  const xs = [...new Set(squares)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < xs.length;) {
    let j = i;
    while (j + 1 < xs.length && xs[j + 1] === xs[j] + 1) j++;
    if (j - i >= 2) parts.push(`${xs[i]}–${xs[j]}`);
    else for (let k = i; k <= j; k++) parts.push(`${xs[k]}`);
    i = j + 1;
  }
  return joinWords(parts);
}

/** Fixes as instructions, one per kind of piece: "Put a black man on 1–12", "Take the coin off 13 and 14". */
export function fixSentences(fixes: readonly Fix[]): string[] {
  const groups = new Map<string, { action: Fix['action']; piece: string; squares: number[] }>();
  for (const f of fixes) {
    const key = `${f.action}|${f.piece}`;
    const g = groups.get(key) ?? { action: f.action, piece: f.piece, squares: [] };
    g.squares.push(f.square);
    groups.set(key, g);
  }
  return [...groups.values()].map((g) =>
    g.action === 'place' ? `Put ${g.piece} on ${squareList(g.squares)}` : `Take ${g.piece} off ${squareList(g.squares)}`,
  );
}

/** The fixes as one spoken sentence: "Put a black man on 1–12; take the coin off 13." */
export function fixesSentence(fixes: readonly Fix[]): string {
  const parts = fixSentences(fixes);
  if (!parts.length) return '';
  return parts.map((p, i) => (i ? p[0].toLowerCase() + p.slice(1) : p)).join('; ') + '.';
}

/** "black men on 12 and 16, a black king on 22": what stands where, for checking colours. */
export function piecesSentence(
  pieces: readonly { square: number; color: 'black' | 'white'; king: boolean }[],
  color: 'black' | 'white',
): string {
  const men = pieces.filter((p) => p.color === color && !p.king).map((p) => p.square);
  const kings = pieces.filter((p) => p.color === color && p.king).map((p) => p.square);
  const parts: string[] = [];
  if (men.length) parts.push(`${men.length > 1 ? `${color} men` : `a ${color} man`} on ${squareList(men)}`);
  if (kings.length) parts.push(`${kings.length > 1 ? `${color} kings` : `a ${color} king`} on ${squareList(kings)}`);
  return parts.join(', ');
}

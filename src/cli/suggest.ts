// "Did you mean …?" for mistyped commands and options: the closest known word
// by edit distance, offered only when it is close enough to be a typo.

/** Levenshtein distance with adjacent transpositions (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/** The known word closest to `word`, if within a third of its length (at least 1, at most 3 edits), else null. */
export function closest(word: string, known: Iterable<string>): string | null {
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  let best: string | null = null,
    bestD = Infinity;
  for (const k of known) {
    const dist = editDistance(word.toLowerCase(), k.toLowerCase());
    if (dist < bestD) [best, bestD] = [k, dist];
  }
  return bestD <= limit ? best : null;
}

/** " (did you mean X?)" or "". */
export const didYouMean = (word: string, known: Iterable<string>): string => {
  const c = closest(word, known);
  return c ? ` (did you mean ${c}?)` : '';
};

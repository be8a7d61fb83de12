// PDN tokens: tags, move numbers, moves, comments, `%`/`;` line comments,
// variations, NAGs, move strength and results. A hand-written linear scanner
// (no backtracking regexes) so any input, however broken, is tokenised in one
// pass; bad characters become `error` tokens for the reader to report.

export type Token =
  | { kind: 'tag'; name: string; value: string; line: number; col: number }
  | { kind: 'number'; value: number; line: number; col: number }
  | { kind: 'move'; text: string; strength: string; line: number; col: number }
  | { kind: 'comment'; text: string; line: number; col: number }
  | { kind: 'open' | 'close' | 'ellipsis'; line: number; col: number }
  | { kind: 'nag'; value: number; line: number; col: number }
  | { kind: 'result'; text: string; line: number; col: number }
  | { kind: 'error'; message: string; line: number; col: number }
  /** Words glued to a move without braces (`8-11Redoverstepped…`): annotation text. */
  | { kind: 'text'; text: string; line: number; col: number };

const RESULTS = ['1/2-1/2', '1-0', '0-1', '2-0', '0-2', '1-1', '0-0', '*'];

const isDigit = (c: string): boolean => c >= '0' && c <= '9';
const isSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v' || c === '\ufeff';
const isWordEnd = (c: string | undefined): boolean =>
  c === undefined || isSpace(c) || c === '[' || c === '(' || c === ')' || c === '{' || c === '$';

export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let i = 0,
    line = 1,
    lineStart = 0;
  const n = text.length;
  const col = () => i - lineStart + 1;
  const newline = (at: number) => {
    line++;
    lineStart = at + 1;
  };
  while (i < n) {
    const c = text[i];
    if (c === '\n') {
      newline(i);
      i++;
      continue;
    }
    if (isSpace(c)) {
      i++;
      continue;
    }
    const startLine = line,
      startCol = col();
    // `%` at the start of a line, and `;` anywhere: comment to end of line.
    if ((c === '%' && text.slice(lineStart, i).trim() === '') || c === ';') {
      while (i < n && text[i] !== '\n') i++;
      continue;
    }
    if (c === '{') {
      const end = text.indexOf('}', i + 1);
      const stop = end < 0 ? n : end;
      const body = text.slice(i + 1, stop);
      for (let k = i + 1; k < stop; k++) if (text[k] === '\n') newline(k);
      if (end < 0) {
        out.push({ kind: 'error', message: 'comment opened with { is never closed', line: startLine, col: startCol });
        i = n;
      } else {
        out.push({ kind: 'comment', text: body, line: startLine, col: startCol });
        i = end + 1;
      }
      continue;
    }
    if (c === '[') {
      const tok = scanTag(text, i);
      if ('error' in tok) {
        out.push({ kind: 'error', message: tok.error, line: startLine, col: startCol });
        // Skip to the end of this line so one bad tag costs one error.
        while (i < n && text[i] !== '\n') i++;
      } else {
        out.push({ kind: 'tag', name: tok.name, value: tok.value, line: startLine, col: startCol });
        for (let k = i; k < tok.end; k++) if (text[k] === '\n') newline(k);
        i = tok.end;
      }
      continue;
    }
    if (c === '(' || c === ')') {
      out.push({ kind: c === '(' ? 'open' : 'close', line: startLine, col: startCol });
      i++;
      continue;
    }
    if (c === '$') {
      let j = i + 1;
      while (j < n && isDigit(text[j])) j++;
      if (j === i + 1)
        out.push({ kind: 'error', message: '$ must be followed by a number (a NAG like $1)', line: startLine, col: startCol });
      else out.push({ kind: 'nag', value: Number(text.slice(i + 1, Math.min(j, i + 7))), line: startLine, col: startCol });
      i = j;
      continue;
    }
    if (c === '.') {
      let j = i;
      while (j < n && text[j] === '.') j++;
      out.push({ kind: 'ellipsis', line: startLine, col: startCol });
      i = j;
      continue;
    }
    // Results (checked before moves: `1-0` is not a move, there is no square 0).
    const result = RESULTS.find((r) => text.startsWith(r, i) && isWordEnd(text[i + r.length]));
    if (result) {
      out.push({ kind: 'result', text: result, line: startLine, col: startCol });
      i += result.length;
      continue;
    }
    if (isDigit(c)) {
      let j = i;
      while (j < n && isDigit(text[j])) j++;
      if (text[j] === '.') {
        // Move number: `12.` or `12...`
        const value = Number(text.slice(i, Math.min(j, i + 9)));
        while (j < n && text[j] === '.') j++;
        out.push({ kind: 'number', value, line: startLine, col: startCol });
        i = j;
        continue;
      }
      // Move: digits, then one or more of separator + digits.
      while (j < n && (text[j] === '-' || text[j] === 'x' || text[j] === 'X' || text[j] === ':') && isDigit(text[j + 1] ?? '')) {
        j++;
        while (j < n && isDigit(text[j])) j++;
      }
      let k = j;
      while (k < n && (text[k] === '!' || text[k] === '?')) k++;
      if (/[-xX:]/.test(text.slice(i, j))) {
        out.push({ kind: 'move', text: text.slice(i, j), strength: text.slice(j, k), line: startLine, col: startCol });
        i = k;
        if (!isWordEnd(text[k])) {
          let e = k;
          while (e < n && !isWordEnd(text[e])) e++;
          out.push({ kind: 'text', text: text.slice(k, e), line: startLine, col: startCol + (k - (i - (k - j))) });
          i = e;
        }
        continue;
      }
    }
    // Anything else: one word we cannot read.
    let j = i;
    while (j < n && !isWordEnd(text[j])) j++;
    if (j === i) j = i + 1;
    out.push({ kind: 'error', message: `cannot read "${text.slice(i, Math.min(j, i + 30))}"`, line: startLine, col: startCol });
    i = j;
  }
  return out;
}

function scanTag(text: string, start: number): { name: string; value: string; end: number } | { error: string } {
  let i = start + 1;
  const n = text.length;
  while (i < n && (text[i] === ' ' || text[i] === '\t')) i++;
  const nameStart = i;
  while (i < n && /[A-Za-z0-9_]/.test(text[i])) i++;
  const name = text.slice(nameStart, i);
  if (!name) return { error: 'tag without a name (expected [Name "value"])' };
  while (i < n && (text[i] === ' ' || text[i] === '\t')) i++;
  if (text[i] !== '"') return { error: `tag [${name} has no quoted value` };
  i++;
  let value = '';
  while (i < n && text[i] !== '"') {
    if (text[i] === '\n') return { error: `value of tag [${name} is not closed with " on its line` };
    if (text[i] === '\\' && i + 1 < n && (text[i + 1] === '"' || text[i + 1] === '\\')) {
      value += text[i + 1];
      i += 2;
      continue;
    }
    value += text[i++];
  }
  if (i >= n) return { error: `value of tag [${name} is not closed with "` };
  i++;
  while (i < n && (text[i] === ' ' || text[i] === '\t')) i++;
  if (text[i] !== ']') return { error: `tag [${name} is not closed with ]` };
  return { name, value, end: i + 1 };
}

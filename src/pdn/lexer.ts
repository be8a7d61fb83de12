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

/** The scanner's place in the text: the index, the line and where it starts, and the tokens so far. */
interface Scan {
  readonly text: string;
  readonly n: number;
  i: number;
  line: number;
  lineStart: number;
  readonly out: Token[];
}

const newline = (s: Scan, at: number): void => {
  s.line++;
  s.lineStart = at + 1;
};

/** Tokens of PDN text, in order; what cannot be read becomes an `error` token, and scanning goes on. */
export function tokenize(text: string): Token[] {
  const s: Scan = { text, n: text.length, i: 0, line: 1, lineStart: 0, out: [] };
  while (s.i < s.n) {
    const c = text[s.i];
    if (c === '\n') {
      newline(s, s.i);
      s.i++;
      continue;
    }
    if (isSpace(c)) {
      s.i++;
      continue;
    }
    const at = { line: s.line, col: s.i - s.lineStart + 1 };
    // `%` at the start of a line, and `;` anywhere: comment to end of line.
    if ((c === '%' && text.slice(s.lineStart, s.i).trim() === '') || c === ';') skipLine(s);
    else if (c === '{') braceComment(s, at);
    else if (c === '[') tagToken(s, at);
    else if (c === '(' || c === ')') {
      s.out.push({ kind: c === '(' ? 'open' : 'close', ...at });
      s.i++;
    } else if (c === '$') nagToken(s, at);
    else if (c === '.') {
      while (s.i < s.n && text[s.i] === '.') s.i++;
      s.out.push({ kind: 'ellipsis', ...at });
    } else if (!resultToken(s, at) && !(isDigit(c) && numberOrMove(s, at))) unreadable(s, at);
  }
  return s.out;
}

type At = { line: number; col: number };

function skipLine(s: Scan): void {
  while (s.i < s.n && s.text[s.i] !== '\n') s.i++;
}

/** `{…}`: a comment (its lines counted), or an error when it is never closed. */
function braceComment(s: Scan, at: At): void {
  const end = s.text.indexOf('}', s.i + 1);
  const stop = end < 0 ? s.n : end;
  const body = s.text.slice(s.i + 1, stop);
  for (let k = s.i + 1; k < stop; k++) if (s.text[k] === '\n') newline(s, k);
  if (end < 0) {
    s.out.push({ kind: 'error', message: 'comment opened with { is never closed', ...at });
    s.i = s.n;
  } else {
    s.out.push({ kind: 'comment', text: body, ...at });
    s.i = end + 1;
  }
}

/** `[Name "value"]`: a tag; a bad one costs one error and the rest of its line. */
function tagToken(s: Scan, at: At): void {
  const tok = scanTag(s.text, s.i);
  if ('error' in tok) {
    s.out.push({ kind: 'error', message: tok.error, ...at });
    skipLine(s);
  } else {
    s.out.push({ kind: 'tag', name: tok.name, value: tok.value, ...at });
    for (let k = s.i; k < tok.end; k++) if (s.text[k] === '\n') newline(s, k);
    s.i = tok.end;
  }
}

/** `$n`: a NAG, or an error when no number follows. */
function nagToken(s: Scan, at: At): void {
  let j = s.i + 1;
  while (j < s.n && isDigit(s.text[j])) j++;
  if (j === s.i + 1) s.out.push({ kind: 'error', message: '$ must be followed by a number (a NAG like $1)', ...at });
  else s.out.push({ kind: 'nag', value: Number(s.text.slice(s.i + 1, Math.min(j, s.i + 7))), ...at });
  s.i = j;
}

/** A result (checked before moves: `1-0` is not a move, there is no square 0); false when there is none here. */
function resultToken(s: Scan, at: At): boolean {
  const result = RESULTS.find((r) => s.text.startsWith(r, s.i) && isWordEnd(s.text[s.i + r.length]));
  if (!result) return false;
  s.out.push({ kind: 'result', text: result, ...at });
  s.i += result.length;
  return true;
}

/** A move number (`12.`, `12...`) or a move with its strength (and any words glued to it, as text); false when the digits are neither. */
function numberOrMove(s: Scan, at: At): boolean {
  const { text, n, i } = s;
  let j = i;
  while (j < n && isDigit(text[j])) j++;
  if (text[j] === '.') {
    const value = Number(text.slice(i, Math.min(j, i + 9)));
    while (j < n && text[j] === '.') j++;
    s.out.push({ kind: 'number', value, ...at });
    s.i = j;
    return true;
  }
  // Move: digits, then one or more of separator + digits.
  while (j < n && (text[j] === '-' || text[j] === 'x' || text[j] === 'X' || text[j] === ':') && isDigit(text[j + 1] ?? '')) {
    j++;
    while (j < n && isDigit(text[j])) j++;
  }
  let k = j;
  while (k < n && (text[k] === '!' || text[k] === '?')) k++;
  if (!/[-xX:]/.test(text.slice(i, j))) return false;
  s.out.push({ kind: 'move', text: text.slice(i, j), strength: text.slice(j, k), ...at });
  s.i = k;
  if (!isWordEnd(text[k])) {
    let e = k;
    while (e < n && !isWordEnd(text[e])) e++;
    s.out.push({ kind: 'text', text: text.slice(k, e), line: at.line, col: at.col + (k - j) });
    s.i = e;
  }
  return true;
}

/** Anything else: one word that cannot be read, as an error. */
function unreadable(s: Scan, at: At): void {
  let j = s.i;
  while (j < s.n && !isWordEnd(s.text[j])) j++;
  if (j === s.i) j = s.i + 1;
  s.out.push({ kind: 'error', message: `cannot read "${s.text.slice(s.i, Math.min(j, s.i + 30))}"`, ...at });
  s.i = j;
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

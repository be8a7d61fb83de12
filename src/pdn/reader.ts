// PDN reader: splits a file into games, reads each game's tags and movetext,
// and resolves every move against the rules engine. A bad game is reported as a
// typed PdnError naming the game, move number and text; the other games are
// still read. Never throws for any input.

import { tokenize, type Token } from './lexer.ts';
import { gameName, VARIANT_NAMES, type PdnGame, type PdnMove, type PdnResult } from './model.ts';
import {
  GameError,
  MoveError,
  Game,
  legalMoves,
  parseFen,
  playMove,
  resolveMove,
  startPosition,
  type GameOptions,
  type Position,
} from '../rules/index.ts';
import { CrownheadError } from '../common/errors.ts';

export type PdnErrorCode = 'syntax' | 'bad-fen' | 'invalid-move' | 'illegal-move' | 'ambiguous-move';

export class PdnError extends CrownheadError<PdnErrorCode> {
  override readonly name = 'PdnError';
  constructor(
    code: PdnErrorCode,
    readonly gameIndex: number,
    readonly game: string,
    readonly line: number,
    readonly detail: string,
    readonly moveNumber?: number,
    readonly side?: 'Black' | 'White',
    readonly text?: string,
  ) {
    super(code, `${game}, line ${line}: ` + (moveNumber !== undefined ? `move ${moveNumber} for ${side}, "${text}": ` : '') + detail);
  }
}

export interface PdnReadResult {
  games: PdnGame[];
  errors: PdnError[];
}

/** Reads every game in a PDN text. */
export function readPdn(text: string): PdnReadResult {
  const games: PdnGame[] = [];
  const errors: PdnError[] = [];
  const chunks = splitGames(tokenize(text));
  chunks.forEach((tokens, k) => {
    const r = readGame(tokens, k + 1);
    if (r instanceof PdnError) errors.push(r);
    else games.push(r);
  });
  return { games, errors };
}

/** Reads a text that must hold exactly one game; throws its PdnError. */
export function readOnePdn(text: string): PdnGame {
  const { games, errors } = readPdn(text);
  if (errors.length) throw errors[0];
  if (games.length !== 1) {
    throw new PdnError('syntax', 1, 'game 1', 1, games.length === 0 ? 'no game found' : `expected one game, found ${games.length}`);
  }
  return games[0];
}

/** Splits tokens into games: tags after movetext start a new game, a result at top level ends one. */
function splitGames(tokens: Token[]): Token[][] {
  const games: Token[][] = [];
  let cur: Token[] = [];
  let depth = 0;
  let body = false;
  const close = () => {
    if (cur.length) games.push(cur);
    cur = [];
    depth = 0;
    body = false;
  };
  for (const t of tokens) {
    if (t.kind === 'tag' && body) close();
    cur.push(t);
    if (t.kind === 'open') depth++;
    else if (t.kind === 'close') depth = Math.max(0, depth - 1);
    if (t.kind !== 'tag') body = true;
    if (t.kind === 'result' && depth === 0) close();
  }
  close();
  return games;
}

const STRUCTURAL = new Set(['result', 'gametype', 'setup', 'fen']);

function readGame(tokens: Token[], index: number): PdnGame | PdnError {
  const tags: [string, string][] = [];
  let fen: string | undefined;
  let resultTag: string | undefined;
  let i = 0;
  const line = tokens[0]?.line ?? 1;
  const name = () => gameName({ tags, index });
  const fail = (code: PdnErrorCode, t: Token | undefined, detail: string) => new PdnError(code, index, name(), t?.line ?? line, detail);

  for (; i < tokens.length && tokens[i].kind === 'tag'; i++) {
    const t = tokens[i] as Extract<Token, { kind: 'tag' }>;
    const key = t.name.toLowerCase();
    if (key === 'fen') fen = t.value;
    else if (key === 'result') resultTag = t.value;
    else if (key === 'gametype') {
      const type = t.value.split(',')[0].trim();
      if (type !== '21' && type !== '') return fail('syntax', t, `GameType "${t.value}" is not English draughts (21)`);
    }
    if (!STRUCTURAL.has(key)) tags.push([t.name, t.value]);
  }
  const options: { -readonly [K in keyof GameOptions]: GameOptions[K] } = {};
  const variant = tags.find(([k]) => k.toLowerCase() === 'variant');
  if (variant) {
    for (const v of variant[1].split(/[,\s]+/).filter(Boolean)) {
      const opt = VARIANT_NAMES[v.toLowerCase()];
      if (!opt) return fail('syntax', tokens[0], `unknown variant "${v}" (known: ${Object.keys(VARIANT_NAMES).join(', ')})`);
      (options as Record<string, boolean>)[opt] = true;
    }
  }
  const warnings: string[] = [];
  let start: Position;
  if (fen !== undefined && fen.trim() !== '') {
    const read = parseFen(fen, { allowUncrownedMen: true, warn: (m) => warnings.push(`FEN: ${m}`) });
    if (!read.ok) return fail('bad-fen', tokens[0], read.error.message);
    start = read.value;
  } else start = startPosition('black');

  const game = new Game(start, options);
  const moves: PdnMove[] = [];
  const trailing: string[] = [];
  let result: PdnResult | undefined;
  const ctx: LineContext = { tokens, i, index, name, options, firstTurn: start.turn, warnings };

  const r = readLine(ctx, start, 0, moves, trailing, game, 0);
  if (r instanceof PdnError) return r;
  i = ctx.i;
  if (i < tokens.length) {
    const t = tokens[i];
    if (t.kind === 'result') {
      result = t.text as PdnResult;
      i++;
    }
  }
  if (i < tokens.length) return fail('syntax', tokens[i], `unexpected ${describe(tokens[i])} after the result`);
  if (!result) {
    const tag = resultTag?.trim();
    result = (tag && ['1-0', '0-1', '1/2-1/2', '*', '2-0', '0-2', '1-1', '0-0'].includes(tag) ? tag : '*') as PdnResult;
  }
  return { index, line, tags, start, options, trailing, moves, result, warnings };
}

interface LineContext {
  tokens: Token[];
  i: number;
  index: number;
  name: () => string;
  options: GameOptions;
  /** Who moved first in the game, for move numbers. */
  firstTurn: 'black' | 'white';
  warnings: string[];
}

const describe = (t: Token): string => {
  switch (t.kind) {
    case 'tag':
      return `tag [${t.name}]`;
    case 'move':
      return `move ${t.text}`;
    case 'result':
      return `result ${t.text}`;
    case 'error':
      return t.message;
    case 'open':
      return '(';
    case 'close':
      return ')';
    default:
      return t.kind;
  }
};

const HUFF = /\[%huff\s+(\d{1,2})\]/;

/** Where a line being read stands: the position, the one before the last move (a variation starts there), comments waiting for the next move, a huff waiting for it. */
interface LineState {
  pos: Position;
  prevPos: Position | null;
  pending: string[];
  huff: number | undefined;
}

type Fail = (code: PdnErrorCode, t: Token, detail: string, text?: string) => PdnError;

/**
 * Reads a line of moves (the main line, or a variation until its `)`), playing
 * them from `pos`. `game` is the rules Game for the main line (null inside
 * variations). Stops before a result or `)`; leaves ctx.i there.
 */
function readLine(
  ctx: LineContext,
  pos: Position,
  basePly: number,
  moves: PdnMove[],
  trailing: string[],
  game: Game | null,
  depth: number,
): void | PdnError {
  const { tokens } = ctx;
  const st: LineState = { pos, prevPos: null, pending: [], huff: undefined };
  const fail: Fail = (code, t, detail, text) => {
    const side = st.pos.turn === 'black' ? 'Black' : 'White';
    const number = moveNumber(ctx.firstTurn, basePly + moves.length);
    return text !== undefined
      ? new PdnError(code, ctx.index, ctx.name(), t.line, detail, number, side, text)
      : new PdnError(code, ctx.index, ctx.name(), t.line, detail);
  };
  while (ctx.i < tokens.length) {
    const t = tokens[ctx.i];
    switch (t.kind) {
      case 'result':
        if (depth > 0) {
          // A result inside a variation: part of the annotation, not the game's end.
          ctx.i++;
          continue;
        }
        trailing.push(...st.pending);
        return;
      case 'close':
        if (depth === 0) return fail('syntax', t, 'a ) closes a variation that was never opened');
        trailing.push(...st.pending);
        return;
      case 'tag':
        return fail('syntax', t, `tag [${t.name}] inside the moves`);
      case 'error':
        return fail('syntax', t, t.message);
      case 'number':
      case 'ellipsis':
        ctx.i++;
        continue;
      case 'comment':
        comment(ctx, st, moves, t.text);
        ctx.i++;
        continue;
      case 'text':
        if (!moves.length) return fail('syntax', t, `cannot read "${t.text.slice(0, 30)}"`);
        moves[moves.length - 1].after.push(t.text);
        ctx.warnings.push(
          `line ${t.line}: text "${t.text.slice(0, 40)}" glued to move ${moves[moves.length - 1].text} kept as its comment`,
        );
        ctx.i++;
        continue;
      case 'nag':
        if (!moves.length) return fail('syntax', t, `NAG $${t.value} before any move`);
        moves[moves.length - 1].nags.push(t.value);
        ctx.i++;
        continue;
      case 'open': {
        const r = variation(ctx, st, moves, basePly, depth, t, fail);
        if (r) return r;
        continue;
      }
      case 'move': {
        const node = moveOf(ctx, st, game, t, fail);
        if (node instanceof PdnError) return node;
        st.huff = undefined;
        st.pending = [];
        moves.push(node);
        ctx.i++;
        continue;
      }
    }
  }
  trailing.push(...st.pending);
}

/** A comment: the last move's, or waiting for the line's first; a huff mark (with huffing on) kept for the next move. */
function comment(ctx: LineContext, st: LineState, moves: PdnMove[], raw: string): void {
  let text = normaliseComment(raw);
  if (ctx.options.huffing) {
    const m = HUFF.exec(text);
    if (m) {
      st.huff = Number(m[1]);
      text = text.replace(HUFF, '').trim();
    }
  }
  if (!text) return;
  // A comment after a move is that move's; comments before a line's first move wait for it.
  if (moves.length) moves[moves.length - 1].after.push(text);
  else st.pending.push(text);
}

/** `( … )` after a move: the alternative to it, read from the position before it and kept with it; its trailing comments go on. */
function variation(
  ctx: LineContext,
  st: LineState,
  moves: PdnMove[],
  basePly: number,
  depth: number,
  t: Token,
  fail: Fail,
): PdnError | undefined {
  if (!moves.length || !st.prevPos) return fail('syntax', t, 'a variation ( before any move');
  ctx.i++;
  const line: PdnMove[] = [];
  const extra: string[] = [];
  const r = readLine(ctx, st.prevPos, basePly + moves.length - 1, line, extra, null, depth + 1);
  if (r instanceof PdnError) return r;
  if (ctx.i >= ctx.tokens.length || ctx.tokens[ctx.i].kind !== 'close') return fail('syntax', t, 'variation opened with ( is never closed');
  ctx.i++;
  if (line.length === 0 && extra.length === 0) return fail('syntax', t, 'empty variation ()');
  if (line.length) line[line.length - 1].after.push(...extra);
  else st.pending.push(...extra);
  if (line.length) moves[moves.length - 1].variations.push(line);
  return undefined;
}

/** A move token played from the line's position (a huffed one through the game): its node, or the error naming why it cannot be played. */
function moveOf(ctx: LineContext, st: LineState, game: Game | null, t: Extract<Token, { kind: 'move' }>, fail: Fail): PdnMove | PdnError {
  try {
    if (st.huff !== undefined && game) {
      const ply = game.huffAndPlay(st.huff, t.text);
      const node = mk(ply.move, t, st.pending, st.huff);
      st.prevPos = ply.before;
      st.pos = ply.after;
      return node;
    }
    const move = resolveWithLookahead(ctx, st.pos, t.text, game ? game.legalMoves() : legalMoves(st.pos, ctx.options));
    if (game) game.play(move);
    const node = mk(move, t, st.pending, undefined);
    st.prevPos = st.pos;
    st.pos = playMove(st.pos, move);
    return node;
  } catch (e) {
    if (e instanceof MoveError) {
      const code = e.code === 'invalid' ? 'invalid-move' : e.code === 'illegal' ? 'illegal-move' : 'ambiguous-move';
      return fail(
        code,
        t,
        `${e.code === 'ambiguous' ? 'ambiguous' : e.code === 'invalid' ? 'invalid' : 'illegal'} move: ${e.reason}`,
        t.text + t.strength,
      );
    }
    if (e instanceof GameError) return fail('illegal-move', t, e.message, t.text);
    throw e;
  }
}

function mk(move: PdnMove['move'], t: Extract<Token, { kind: 'move' }>, before: string[], huff: number | undefined): PdnMove {
  return {
    move,
    text: t.text,
    strength: t.strength,
    nags: [],
    before: [...before],
    after: [],
    variations: [],
    ...(huff !== undefined ? { huff } : {}),
  };
}

/**
 * Resolves a move; when its text is ambiguous (a capture written short that two
 * routes fit), keeps the one route under which the moves that follow stay
 * legal, and notes it as a warning. Still ambiguous if the rest cannot decide.
 */
function resolveWithLookahead(ctx: LineContext, pos: Position, text: string, legal: ReturnType<typeof legalMoves>) {
  try {
    return resolveMove(pos, text, ctx.options, legal);
  } catch (e) {
    if (!(e instanceof MoveError) || e.code !== 'ambiguous') throw e;
    const next = upcomingMoves(ctx.tokens, ctx.i + 1);
    const scored = e.candidates.map((m) => ({ m, n: replayable(playMove(pos, m), next, ctx.options) }));
    const best = Math.max(...scored.map((s) => s.n));
    const winners = scored.filter((s) => s.n === best);
    if (winners.length !== 1 || best === 0) throw e;
    const chosen = winners[0].m;
    ctx.warnings.push(
      `${text} is ambiguous (${e.candidates.map((m) => [m.from, ...m.path].join('x')).join(' or ')}); ` +
        `${[chosen.from, ...chosen.path].join('x')} taken, the only one the next moves agree with`,
    );
    return chosen;
  }
}

/** Texts of the moves that follow in the same line (variations skipped), up to the line's end. */
function upcomingMoves(tokens: Token[], from: number, limit = 12): string[] {
  const out: string[] = [];
  let depth = 0;
  for (let k = from; k < tokens.length && out.length < limit; k++) {
    const t = tokens[k];
    if (t.kind === 'open') depth++;
    else if (t.kind === 'close') {
      if (depth === 0) break;
      depth--;
    } else if (depth === 0) {
      if (t.kind === 'move') out.push(t.text);
      else if (t.kind === 'result' || t.kind === 'tag' || t.kind === 'error') break;
    }
  }
  return out;
}

/** How many of `texts` play legally one after another from `pos` (ambiguous ones take their first route). */
function replayable(pos: Position, texts: string[], options: GameOptions): number {
  let n = 0;
  for (const text of texts) {
    try {
      pos = playMove(pos, resolveMove(pos, text, options));
    } catch (e) {
      if (!(e instanceof MoveError) || e.code !== 'ambiguous') break;
      pos = playMove(pos, e.candidates[0]);
    }
    n++;
  }
  return n;
}

/** PDN move number of the ply at `index` (0-based from the game's start). */
export function moveNumber(firstTurn: 'black' | 'white', index: number): number {
  return Math.floor((index + (firstTurn === 'white' ? 1 : 0)) / 2) + 1;
}

/** Comments are compared and rewritten with their white space folded to single spaces. */
export const normaliseComment = (text: string): string => text.replace(/\s+/g, ' ').trim();

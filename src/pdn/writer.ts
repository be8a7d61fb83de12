// PDN writer: standard PDN for English draughts. Tags in the usual order,
// short move notation (long only where two routes share start and end), move
// numbers, comments, NAGs and variations, lines kept under 80 columns.

import { legalMoves, moveText, playMove, samePosition, START, makeFen, type GameOptions, type Position } from '../rules/index.ts';
import { VARIANT_NAMES, type PdnGame, type PdnMove } from './model.ts';
import { moveNumber } from './reader.ts';

export const MAX_LINE = 79;

const ORDER = ['Event', 'Site', 'Date', 'Round', 'Black', 'White'];
const escapeTag = (v: string): string => v.replace(/[\\"]/g, (c) => '\\' + c).replace(/[\r\n]+/g, ' ');
// eslint-disable-next-line no-control-regex
const safeComment = (c: string): string =>
  c
    .replace(/}/g, ')')
    .replace(/[\s\x00-\x1f]+/g, ' ')
    .trim();

export function makePdnTags(game: PdnGame): [string, string][] {
  const tags: [string, string][] = [];
  const rest = [...game.tags];
  const take = (name: string) => {
    const k = rest.findIndex(([n]) => n.toLowerCase() === name.toLowerCase());
    if (k >= 0) tags.push([name, rest.splice(k, 1)[0][1]]);
  };
  for (const name of ORDER) take(name);
  tags.push(['Result', game.result]);
  tags.push(['GameType', '21']);
  if (!samePosition(game.start, START)) {
    tags.push(['SetUp', '1']);
    tags.push(['FEN', makeFen(game.start)]);
  }
  const variants = Object.entries(VARIANT_NAMES)
    .filter(([, opt]) => game.options[opt])
    .map(([n]) => n);
  // A Variant tag is rebuilt from the options, so drop any copy from the source.
  const vk = rest.findIndex(([n]) => n.toLowerCase() === 'variant');
  if (vk >= 0) rest.splice(vk, 1);
  if (variants.length) tags.push(['Variant', variants.join(', ')]);
  return [...tags, ...rest];
}

/** Movetext units (tokens and comment words), before wrapping. */
function lineUnits(
  moves: readonly PdnMove[],
  start: Position,
  basePly: number,
  firstTurn: Position['turn'],
  options: GameOptions,
  units: string[],
): void {
  let pos = start;
  let needNumber = true;
  moves.forEach((node, idx) => {
    const ply = basePly + idx;
    for (const c of node.before) {
      pushComment(units, c);
      needNumber = true;
    }
    if (node.huff !== undefined) {
      pushComment(units, `[%huff ${node.huff}]`);
      needNumber = true;
      const b = ~(1 << (node.huff - 1));
      pos = { black: pos.black & b, white: pos.white & b, kings: pos.kings & b, turn: pos.turn };
    }
    const before = pos;
    const num = moveNumber(firstTurn, ply);
    // A move number stays on the same line as its move.
    const prefix = pos.turn === 'black' ? `${num}. ` : needNumber ? `${num}... ` : '';
    needNumber = false;
    units.push(prefix + moveText(node.move, legalMoves(pos, options)) + node.strength);
    for (const n of node.nags) units.push(`$${n}`);
    for (const c of node.after) {
      pushComment(units, c);
      needNumber = true;
    }
    for (const v of node.variations) {
      units.push(OPEN);
      lineUnits(v, before, ply, firstTurn, options, units);
      units.push(CLOSE);
      needNumber = true;
    }
    pos = playMove(pos, node.move);
  });
}

function pushComment(units: string[], text: string): void {
  const words = safeComment(text).split(' ').filter(Boolean);
  if (words.length === 0) {
    units.push('{}');
    return;
  }
  words[0] = '{' + words[0];
  words[words.length - 1] += '}';
  units.push(...words);
}

// Variation brackets carry a control character no comment word can (safeComment strips them).
const OPEN = '\u0001(';
const CLOSE = '\u0001)';

/** Joins units with spaces into lines of at most `width` columns; variation brackets hug their neighbours. */
function wrap(units: string[], width: number): string[] {
  const lines: string[] = [];
  let cur = '';
  let glue = false;
  for (const unit of units) {
    const u = unit === OPEN ? '(' : unit === CLOSE ? ')' : unit;
    const sep = cur === '' || glue || unit === CLOSE ? '' : ' ';
    if (cur !== '' && cur.length + sep.length + u.length > width) {
      lines.push(cur);
      cur = u;
    } else cur += sep + u;
    glue = unit === OPEN;
  }
  if (cur) lines.push(cur);
  return lines;
}

export interface WriteOptions {
  readonly width?: number;
}

/** One game as PDN text (ends with a newline). */
export function makePdn(game: PdnGame, opts: WriteOptions = {}): string {
  const width = opts.width ?? MAX_LINE;
  const head = makePdnTags(game).map(([k, v]) => `[${k} "${escapeTag(v)}"]`);
  const units: string[] = [];
  lineUnits(game.moves, game.start, 0, game.start.turn, game.options, units);
  for (const c of game.trailing) pushComment(units, c);
  units.push(game.result);
  return [...head, ...wrap(units, width)].join('\n') + '\n';
}

/** Several games, separated by blank lines. */
export function makePdnFile(games: readonly PdnGame[], opts: WriteOptions = {}): string {
  return games.map((g) => makePdn(g, opts)).join('\n');
}

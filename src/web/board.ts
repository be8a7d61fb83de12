// The board as an SVG string, a function of the view state: piecepack style
// (16 tiles of 2×2 squares, coins as discs, kings as two stacked coins), the
// last move's route, the computer's move to carry out, in review the better
// move the analysis found, the squares to fix with their badges, the square
// numbers, and the hand's hit areas (one tab stop: a roving tabindex). Also
// the evaluation bar drawn beside it. Pure (no DOM).

import { expectedCounts, squareXY, type Fix, type Move, type Piece, type Side, type Status } from './model.ts';
import { canUseHand, effectiveCounts, reviewView, type ViewState } from './state.ts';
import { esc, f2 } from './html.ts';

const COIN_R = 0.37;

function coin(cx: number, cy: number, color: Side | 'unknown', cls = ''): string {
  const k = color === 'unknown' ? 'u' : color === 'black' ? 'b' : 'w';
  return (
    `<g class="coin coin-${k}${cls ? ' ' + cls : ''}">` +
    `<circle class="shadow" cx="${f2(cx + 0.025)}" cy="${f2(cy + 0.05)}" r="${COIN_R}"/>` +
    `<circle class="disc" cx="${f2(cx)}" cy="${f2(cy)}" r="${COIN_R}" fill="url(#g${k})"/>` +
    `<circle class="ring" cx="${f2(cx)}" cy="${f2(cy)}" r="0.285"/>` +
    `</g>`
  );
}

const CROWN = 'M-.17 .08 L-.2 -.1 L-.09 -.02 L0 -.15 L.09 -.02 L.2 -.1 L.17 .08 Z';

function king(cx: number, cy: number, color: Side, topCls = ''): string {
  return (
    coin(cx + 0.045, cy + 0.065, color, 'under') +
    coin(cx - 0.035, cy - 0.05, color, topCls) +
    `<path class="crown crown-${color === 'black' ? 'b' : 'w'}${topCls ? ' ' + topCls : ''}" transform="translate(${f2(cx - 0.035)} ${f2(cy - 0.05)})" d="${CROWN}"/>`
  );
}

function ghost(cx: number, cy: number, color: Side | 'unknown', dy = 0): string {
  const k = color === 'unknown' ? 'u' : color === 'black' ? 'b' : 'w';
  return `<circle class="ghost ghost-${k}" cx="${f2(cx)}" cy="${f2(cy + dy)}" r="${COIN_R}"/>`;
}

interface BoardOptions {
  now: number;
}

/** What the board draws, worked out once from the view state (the game or the reviewed position, the coins, the marks). */
interface Scene {
  flipped: boolean;
  hand: boolean;
  rv: ReturnType<typeof reviewView>;
  want: number[];
  have: number[];
  colorOf: Map<number, Side>;
  last: Move | undefined;
  st: Status | { kind: 'in-sync' };
  fixSquares: Set<number>;
  fixAt: Map<number, Fix>;
  crownAt: number;
  remind: Set<number>;
  mover: Side;
}

/** Decides what is drawn: the position (live or reviewed), the coins on the table against it, the squares to mark. */
function boardScene(s: ViewState, now: number): Scene {
  const snap = s.snap;
  const rv = reviewView(s);
  // Reviewing: the position of that move, as recorded (no live coins, no hand, no fixes).
  const hand = canUseHand(s) && !rv;
  const live = snap !== null && snap.board.connected && !rv;
  const shown: Piece[] = rv ? rv.pieces : (snap?.pieces ?? []);
  const want = expectedCounts(shown);
  const have = live ? effectiveCounts(s, now) : want;
  const colorOf = new Map<number, Side>();
  for (const p of shown) colorOf.set(p.square, p.color);
  const last: Move | undefined = rv ? (rv.last ?? undefined) : snap?.moves[snap.moves.length - 1];
  const st = rv ? { kind: 'in-sync' as const } : s.status;
  const fixes: Fix[] = st.kind === 'illegal' ? st.alert.fixes : st.kind === 'setup' ? st.fixes : [];
  const fixSquares = new Set<number>(
    st.kind === 'illegal' ? [...st.alert.squares, ...fixes.map((f) => f.square)] : fixes.map((f) => f.square),
  );
  const fixAt = new Map<number, Fix>(fixes.map((f) => [f.square, f]));
  const crownAt = rv ? 0 : st.kind === 'awaiting-crown' ? st.square : (snap?.calibration?.square ?? 0);
  const remind = new Set<number>(!rv && s.notice ? s.notice.squares : []);
  // A coin where the game has none came from a square that lost one: it has that piece's colour
  // (a white man moved out of turn is drawn white), else it is the mover's.
  const lifted = new Set<Side>();
  for (let i = 0; i < 32; i++) if (have[i] < want[i] && colorOf.has(i + 1)) lifted.add(colorOf.get(i + 1)!);
  const mover: Side = lifted.size === 1 ? [...lifted][0] : (snap?.turn ?? 'black');
  return { flipped: s.flipped, hand, rv, want, have, colorOf, last, st, fixSquares, fixAt, crownAt, remind, mover };
}

/** The svg element's opening, its gradients and markers, the table and the 16 tiles. */
function pushTable(out: string[], sc: Scene): void {
  const flipped = sc.flipped;
  out.push(
    `<svg class="board-svg${sc.hand ? ' hand' : ''}${flipped ? ' flipped' : ''}${sc.rv ? ' reviewing' : ''}" viewBox="-0.36 -0.36 8.72 8.72" role="group" aria-label="Board, ${flipped ? 'White' : 'Black'} at the top" data-flipped="${flipped}">`,
  );
  out.push(
    '<defs>' +
      '<clipPath id="tile"><rect x="0.03" y="0.03" width="1.94" height="1.94" rx="0.16"/></clipPath>' +
      '<radialGradient id="gb" cx="0.38" cy="0.32" r="0.75"><stop offset="0" stop-color="#4a4a52"/><stop offset="0.55" stop-color="#232328"/><stop offset="1" stop-color="#121215"/></radialGradient>' +
      '<radialGradient id="gw" cx="0.38" cy="0.32" r="0.75"><stop offset="0" stop-color="#fffdf6"/><stop offset="0.6" stop-color="#f1e8d2"/><stop offset="1" stop-color="#d8c9a6"/></radialGradient>' +
      '<radialGradient id="gu" cx="0.38" cy="0.32" r="0.75"><stop offset="0" stop-color="#e8c77a"/><stop offset="1" stop-color="#a97c2f"/></radialGradient>' +
      '<marker id="arrow" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3.2" markerHeight="3.2" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z" class="arrow-head"/></marker>' +
      '<marker id="arrow-better" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3" markerHeight="3" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z" class="better-head"/></marker>' +
      '</defs>',
  );
  out.push('<rect class="table" x="-0.36" y="-0.36" width="8.72" height="8.72" rx="0.3"/>');

  // 16 tiles of 2×2 squares, each with its grid.
  out.push('<g class="tiles">');
  for (let ty = 0; ty < 4; ty++) {
    for (let tx = 0; tx < 4; tx++) {
      out.push(
        `<g transform="translate(${tx * 2} ${ty * 2})" clip-path="url(#tile)"><rect class="light" width="2" height="2"/>` +
          `<rect class="dark" x="1" y="0" width="1" height="1"/><rect class="dark" x="0" y="1" width="1" height="1"/>` +
          `<path class="grid" d="M1 0V2M0 1H2"/></g>`,
      );
    }
  }
  out.push('</g>');
}

/** Square highlights: last move, squares to fix, the crown awaited, a reminder, the piece to retract with. */
function pushMarks(out: string[], sc: Scene): void {
  const { last, st } = sc;
  const lastSquares = new Set<number>(last ? [last.from, last.to] : []);
  out.push('<g class="marks">');
  for (let sq = 1; sq <= 32; sq++) {
    const { x, y } = squareXY(sq, sc.flipped);
    const cls: string[] = [];
    if (lastSquares.has(sq)) cls.push(sq === last!.from ? 'last-from' : 'last-to');
    if (sc.fixSquares.has(sq)) cls.push(st.kind === 'illegal' ? 'fix' : 'setup-fix');
    if (sq === sc.crownAt) cls.push('crown-wait');
    if (sc.remind.has(sq)) cls.push('remind');
    // The retraction rule: the piece that must put the illegal move right.
    if (st.kind === 'illegal' && st.alert.retract?.square === sq) cls.push('retract');
    if (cls.length)
      out.push(
        `<rect class="mark ${cls.join(' ')}" data-mark="${sq}" x="${x + 0.04}" y="${y + 0.04}" width="0.92" height="0.92" rx="0.06"/>`,
      );
  }
  out.push('</g>');
}

/** The routes drawn over the squares: the last move's, the computer's (or far player's) move to carry out, the better move in review. */
function pushRoutes(out: string[], s: ViewState, sc: Scene): void {
  const { last, flipped, have, rv } = sc;
  const snap = s.snap;
  // The last move's route, ending at the edge of the coin that landed.
  if (last && last.from) {
    const route = [last.from, ...(last.path.length ? last.path : [last.to])].map((sq) => {
      const p = squareXY(sq, flipped);
      return [p.x + 0.5, p.y + 0.5];
    });
    const n = route.length;
    if (n >= 2 && have[last.to - 1] > 0) {
      const [ax, ay] = route[n - 2],
        [bx, by] = route[n - 1];
      const len = Math.hypot(bx - ax, by - ay);
      const cut = Math.min(len * 0.6, COIN_R + 0.1);
      route[n - 1] = [bx - ((bx - ax) * cut) / len, by - ((by - ay) * cut) / len];
    }
    out.push(`<polyline class="route" points="${route.map(([x, y]) => `${f2(x)},${f2(y)}`).join(' ')}" marker-end="url(#arrow)"/>`);
  }

  // The computer's move (or the player's at another board), for the player here to carry out: a dashed route from its start.
  const cm = !rv ? (snap?.computer?.move ?? snap?.remote?.move) : null;
  if (cm) {
    const route = [cm.from, ...cm.path].map((sq) => {
      const p = squareXY(sq, flipped);
      return [p.x + 0.5, p.y + 0.5];
    });
    out.push(
      `<polyline class="computer-route" data-computer="${esc(cm.text)}" points="${route.map(([x, y]) => `${f2(x)},${f2(y)}`).join(' ')}" marker-end="url(#arrow)"/>`,
    );
  }

  // Reviewing a move the analysis marks (? or ??): the better move, as a green arrow from the position before it.
  const better = rv && !rv.archived && rv.ply > 0 ? snap?.analysis?.marks.find((a) => a.ply === rv.ply - 1) : undefined;
  const betterSquares = better ? (better.better.match(/\d+/g) ?? []).map(Number).filter((n) => n >= 1 && n <= 32) : [];
  if (better && betterSquares.length >= 2) {
    const route = betterSquares.map((sq) => {
      const p = squareXY(sq, flipped);
      return [p.x + 0.5, p.y + 0.5];
    });
    out.push(
      `<polyline class="better-route" data-better="${esc(better.better)}" points="${route.map(([x, y]) => `${f2(x)},${f2(y)}`).join(' ')}" marker-end="url(#arrow-better)"><title>${esc(better.comment)}</title></polyline>`,
    );
  }
}

/** The coins on each square against the game's: as they stand, outlines of the missing, extra coins, a capture's cross. */
function pushPieces(out: string[], s: ViewState, sc: Scene): void {
  const { last, mover } = sc;
  out.push('<g class="pieces">');
  for (let sq = 1; sq <= 32; sq++) {
    const { x, y } = squareXY(sq, sc.flipped);
    const cx = x + 0.5,
      cy = y + 0.5;
    const w = sc.want[sq - 1],
      h = sc.have[sq - 1];
    const color = sc.colorOf.get(sq);
    if (w === 0 && h === 0) {
      if (last && last.captures.includes(sq))
        out.push(`<path class="captured" data-captured="${sq}" d="M${f2(cx - 0.14)} ${f2(cy - 0.14)}l.28 .28m0 -.28l-.28 .28"/>`);
      continue;
    }
    const pieceColor: Side | 'unknown' = color ?? (s.status.kind === 'moving' || s.status.kind === 'illegal' ? mover : 'unknown');
    const attrs = `data-square="${sq}" data-coins="${h}" data-want="${w}"${color ? ` data-color="${color}"` : ''}`;
    out.push(`<g class="piece${h === 2 ? ' king' : ''}${h !== w ? ' differs' : ''}" ${attrs}>`);
    if (h === w) {
      out.push(h === 2 ? king(cx, cy, color ?? 'black') : coin(cx, cy, color ?? 'black'));
    } else if (h === 0) {
      // Lifted (or to be placed): the outline of what belongs here.
      out.push(
        w === 2
          ? ghost(cx + 0.045, cy + 0.065, color ?? 'unknown') + ghost(cx - 0.035, cy - 0.05, color ?? 'unknown')
          : ghost(cx, cy, color ?? 'unknown'),
      );
    } else if (w === 0) {
      // Coins where the game has none: a move being made, or a stray piece.
      out.push(h === 2 ? king(cx, cy, pieceColor === 'unknown' ? mover : pieceColor, 'extra') : coin(cx, cy, pieceColor, 'extra'));
    } else if (h === 1 && w === 2) {
      // A king with its crown off (or a crown not yet stacked).
      out.push(coin(cx, cy, color ?? 'black') + ghost(cx - 0.035, cy - 0.05, 'unknown', 0));
    } else {
      // A second coin on a man.
      out.push(king(cx, cy, color ?? mover, 'extra'));
    }
    out.push('</g>');
  }
  out.push('</g>');
}

/** On top of the coins: the square numbers, and the badges saying what to do on the squares to fix. */
function pushLabels(out: string[], sc: Scene): void {
  const flipped = sc.flipped;
  // Square numbers, on top (the last move's arrowhead never hides one).
  out.push('<g class="nums" aria-hidden="true">');
  for (let sq = 1; sq <= 32; sq++) {
    const { x, y } = squareXY(sq, flipped);
    out.push(`<text x="${f2(x + 0.05)}" y="${f2(y + 0.175)}">${sq}</text>`);
  }
  out.push('</g>');

  // What to do on the squares to fix: + put a piece here, − take coins off.
  out.push('<g class="fix-badges" aria-hidden="true">');
  for (const [sq, f] of sc.fixAt) {
    const { x, y } = squareXY(sq, flipped);
    const bx = x + 0.83,
      by = y + 0.17;
    const plus = f.action === 'place';
    out.push(
      `<g class="badge ${plus ? 'badge-place' : 'badge-remove'}" data-fix="${sq}"><circle cx="${f2(bx)}" cy="${f2(by)}" r="0.13"/>` +
        `<path d="M${f2(bx - 0.07)} ${f2(by)}h.14${plus ? `M${f2(bx)} ${f2(by - 0.07)}v.14` : ''}"/></g>`,
    );
  }
  out.push('</g>');
}

/** Hit areas for the hand: one tab stop for the whole board (a roving tabindex; the arrow keys move it, main.ts). */
function pushHits(out: string[], s: ViewState, sc: Scene): void {
  const colorOf = sc.colorOf;
  out.push('<g class="hits">');
  for (let sq = 1; sq <= 32; sq++) {
    const { x, y } = squareXY(sq, sc.flipped);
    const h = sc.have[sq - 1];
    const what =
      h === 0
        ? 'empty'
        : h === 2
          ? `${colorOf.get(sq) ?? ''} king`.trim()
          : `${colorOf.get(sq) ?? ''} ${colorOf.get(sq) ? 'man' : 'coin'}`.trim();
    const verb = h === 0 ? 'place' : 'lift';
    out.push(
      `<rect class="hit" id="sq-${sq}" data-act="square" data-sq="${sq}" x="${x}" y="${y}" width="1" height="1" tabindex="0" role="button" aria-label="Square ${sq}, ${what}: ${verb}"/>`.replace(
        'tabindex="0"',
        `tabindex="${sq === s.boardFocus ? 0 : -1}"`,
      ),
    );
  }
  out.push('</g>');
}

/**
 * The board: the game position as it stands on the table. Where the board
 * differs from the game (a piece lifted, a coin put down, a crown awaited),
 * the physical coins are drawn and the missing ones shown as outlines.
 */
export function renderBoard(s: ViewState, opts: BoardOptions): string {
  const sc = boardScene(s, opts.now);
  const out: string[] = [];
  pushTable(out, sc);
  pushMarks(out, sc);
  pushRoutes(out, s, sc);
  pushPieces(out, s, sc);
  pushLabels(out, sc);
  if (sc.hand) pushHits(out, s, sc);
  out.push('</svg>');
  return out.join('');
}

// ------------------------------------------------------------------ evaluation

/** The evaluation in words, from the side it favours: "Black +0.35", "White: win in 7", "equal" (zero), "thinking…". */
export function evaluationWords(ev: { score: number | null; text: string }): string {
  if (ev.score === null) return 'thinking…';
  if (Math.abs(ev.score) < 10 || ev.text === 'level') return 'equal';
  return ev.text;
}

/**
 * The evaluation bar beside the board (lichess): Black's share grows from
 * Black's edge of the board (the top unless flipped) with Black's score; a
 * win fills it. Empty when the evaluation is off.
 */
export function renderEvalBar(s: ViewState): string {
  const ev = s.snap?.evaluation;
  if (!ev) return '';
  const share = ev.score === null ? 50 : Math.max(2, Math.min(98, 50 + 50 * Math.tanh(ev.score / 300)));
  const words = evaluationWords(ev);
  return (
    `<div class="evalbar${s.flipped ? ' flipped' : ''}" data-eval="${ev.score ?? ''}" role="img" aria-label="Evaluation: ${esc(words)}" title="Evaluation: ${esc(words)}">` +
    `<span class="eval-black" style="height:${share.toFixed(1)}%"></span></div>`
  );
}

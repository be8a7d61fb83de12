// The friend's seat page drawn as a function of its state (play-state.ts):
// the board from the friend's side (their colour at the bottom), the last
// move, the pieces that can move and where the picked one may land, the move
// of theirs waiting to be carried out on the real board; both clocks; the
// game in words; the buttons that fit the moment (resign, draw offer and
// answer, takeback request and answer, rematch) and the PDN download. Pure
// (no DOM).

import type { Piece, Side } from '../protocol/v1.ts';
import { esc, f2 } from './html.ts';
import { squareXY } from './model.ts';
import { clockFace, clockNow, isOver, mySide, sidesWords, statusWords, targets, type PlayState } from './play-state.ts';

/** The board as an SVG: dark squares are the hit areas (data-sq), pieces drawn on them. */
export function renderPlayBoard(s: PlayState): string {
  const side = mySide(s) ?? 'white';
  const flipped = side === 'black';
  const snap = s.snap;
  const t = targets(s);
  const last = snap?.moves[snap.moves.length - 1];
  const waiting = snap?.remote?.move ?? null;
  const mark = new Map<number, string>();
  if (last) for (const q of [last.from, last.to]) mark.set(q, 'last');
  if (waiting) for (const q of [waiting.from, ...waiting.path]) mark.set(q, 'waiting');
  for (const q of t.from) mark.set(q, s.picked.length ? 'picked' : 'can');
  for (const q of t.to) mark.set(q, 'target');
  let out = `<svg class="play-board" viewBox="0 0 8 8" role="img" aria-label="The board, ${side === 'black' ? 'Black' : 'White'} at the bottom">`;
  for (let y = 0; y < 8; y++)
    for (let x = 0; x < 8; x++) if ((x + y) % 2 === 0) out += `<rect class="light" x="${x}" y="${y}" width="1" height="1"/>`;
  const can = new Set([...t.from, ...t.to]);
  for (let sq = 1; sq <= 32; sq++) {
    const { x, y } = squareXY(sq, flipped);
    const m = mark.get(sq);
    // The squares that do something now are buttons a keyboard reaches (Tab, then Enter or Space).
    const key = can.has(sq)
      ? ` tabindex="0" role="button" aria-label="${t.to.includes(sq) ? `to ${sq}` : s.picked[0] === sq ? `${sq}, picked` : `piece on ${sq}`}"`
      : '';
    out += `<rect id="psq-${sq}" class="dark${m ? ' ' + m : ''}" data-sq="${sq}" x="${x}" y="${y}" width="1" height="1"${key}/>`;
    out += `<text class="num" x="${f2(x + 0.06)}" y="${f2(y + 0.2)}">${sq}</text>`;
  }
  for (const p of snap?.pieces ?? []) out += piece(p, flipped);
  for (const q of t.to) {
    const { x, y } = squareXY(q, flipped);
    out += `<circle class="dot" cx="${f2(x + 0.5)}" cy="${f2(y + 0.5)}" r="0.14"/>`;
  }
  return out + '</svg>';
}

function piece(p: Piece, flipped: boolean): string {
  const { x, y } = squareXY(p.square, flipped);
  const k = p.color === 'black' ? 'b' : 'w';
  const cx = f2(x + 0.5);
  const cy = f2(y + 0.5);
  return (
    `<g class="pc pc-${k}${p.king ? ' king' : ''}" data-piece="${p.square}"><circle cx="${cx}" cy="${cy}" r="0.38"/>` +
    (p.king ? `<text class="crown" x="${cx}" y="${f2(y + 0.63)}">♔</text>` : '') +
    '</g>'
  );
}

/** One player's line: name, side, clock (running or not). */
function playerLine(s: PlayState, who: Side, name: string, now: number): string {
  const c = clockNow(s, now);
  const running = c?.running === who;
  const clock = c ? `<span class="pclock${running ? ' running' : ''}" data-clock="${who}">${esc(clockFace(c[who]))}</span>` : '';
  return `<div class="pline" data-side="${who}"><span class="pname">${esc(name)}</span><span class="pside">${who === 'black' ? 'Black' : 'White'}</span>${clock}</div>`;
}

const btn = (act: string, label: string, cls = '') =>
  `<button type="button" data-act="${act}"${cls ? ` class="${cls}"` : ''}>${esc(label)}</button>`;

/** The buttons that fit the moment. */
export function renderActions(s: PlayState, token: string): string {
  const side = mySide(s);
  const snap = s.snap;
  const pdn = `<a class="pdn" href="/play/${encodeURIComponent(token)}/game.pdn" download data-act="pdn">Download PDN</a>`;
  if (s.ended) return '';
  if (!side || !snap) return pdn;
  const other: Side = side === 'black' ? 'white' : 'black';
  const parts: string[] = [];
  if (isOver(s)) parts.push(btn('rematch', 'Rematch (colours swapped)', 'primary'));
  else {
    if (snap.drawOffer === other)
      parts.push(
        `<span class="ask">${esc(s.seat!.opponent)} offers a draw</span>`,
        btn('accept-draw', 'Accept draw', 'primary'),
        btn('decline-draw', 'Decline'),
      );
    else if (snap.drawOffer === side) parts.push('<span class="ask">Your draw offer stands</span>');
    else parts.push(btn('offer-draw', 'Offer draw'));
    if (snap.takebackOffer === other)
      parts.push(
        `<span class="ask">${esc(s.seat!.opponent)} asks to take back a move</span>`,
        btn('takeback-agree', 'Agree', 'primary'),
        btn('takeback-refuse', 'Refuse'),
      );
    else if (snap.takebackOffer === side) parts.push('<span class="ask">Takeback asked: waiting for the answer</span>');
    else if (snap.moves.length && !snap.options.tournament) parts.push(btn('takeback', 'Ask takeback'));
    parts.push(btn('resign', s.armed ? 'Really resign?' : 'Resign', s.armed ? 'danger armed' : 'danger'));
  }
  return parts.join('') + pdn;
}

/** The whole seat page. */
export function renderPlay(s: PlayState, token: string, now: number): string {
  const side = mySide(s) ?? 'white';
  const other: Side = side === 'black' ? 'white' : 'black';
  const seat = s.seat;
  const status = statusWords(s);
  const yourTurn = status === 'Your move.';
  return (
    `<header class="ptop"><span class="brand">Crownhead</span><span class="conn" data-connected="${s.connected}">${s.connected ? 'Connected' : 'Reconnecting…'}</span></header>` +
    (seat ? playerLine(s, other, seat.opponent, now) : '') +
    `<div class="board-box">${renderPlayBoard(s)}</div>` +
    (seat ? playerLine(s, side, `${seat.name} (you)`, now) : '') +
    `<p id="play-status" class="pstatus${yourTurn ? ' yours' : ''}" aria-live="polite">${esc(status)}</p>` +
    `<p class="psides">${esc(sidesWords(seat))}</p>` +
    (s.error ? `<p id="play-error" class="perror" role="alert">${esc(s.error)}</p>` : '') +
    `<div id="play-actions" class="pactions">${renderActions(s, token)}</div>` +
    `<p class="psaid" id="play-said">${esc(s.said)}</p>` +
    `<ol class="pmoves" aria-label="Moves">${(s.snap?.moves ?? []).map((m) => `<li>${esc(m.text)}</li>`).join('')}</ol>`
  );
}

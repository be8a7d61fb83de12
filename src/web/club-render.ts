// The club pages as HTML strings, a function of the club state
// (club-state.ts): the grid of board cards (a small board with the last move,
// the players and their clocks, the moves played, the result, the state in
// colour and words, a link to the board's own page), the Event/Round
// headings, the connection pill, and for the arbiter the list of boards
// needing attention and each board's tools. Pure (no DOM). A page carries on
// only the token its own address gave (the arbiter's control token, or the
// watch token a spectator on another device was given): none, none on.

import { esc, f2 } from './html.ts';
import { clockFace } from './render.ts';
import { squareXY } from './model.ts';
import type { ClockState, Side } from '../protocol/v1.ts';
import type { BoardSummary } from '../protocol/club-v1.ts';
import {
  boardGroups,
  clockNow,
  glance,
  movesPlayed,
  needsAttention,
  resultWords,
  stateDetail,
  type BoardEntry,
  type ClubMode,
  type ClubState,
} from './club-state.ts';

export interface ClubRenderOptions {
  mode: ClubMode;
  /** the token from the page's own address (the arbiter's control token; on /watch, the watch token a spectator was given), or null */
  token: string | null;
  /** a hub's arbiter page: the hub's own link to the broker, as its stations panel last read it (down: the pill is not "Live") */
  broker?: () => { connected: boolean; since: number } | null;
}

/** An element id for a board id (EEPROM ids and SIM-3 alike). */
export const cardId = (id: string): string => `board-${id.replace(/[^A-Za-z0-9_-]/g, '_')}`;

/** The board's own page: read-only with review for spectators (their watch token carried on), all controls with the arbiter's token. */
export function boardHref(id: string, opts: ClubRenderOptions): string {
  const base = `/boards/${encodeURIComponent(id)}/`;
  return opts.token ? `${base}?token=${encodeURIComponent(opts.token)}` : base;
}

// ------------------------------------------------------------------ the small board

const CROWN = 'M-.17 .08 L-.2 -.1 L-.09 -.02 L0 -.15 L.09 -.02 L.2 -.1 L.17 .08 Z';

function countWords(b: BoardSummary, side: Side): string {
  const mine = b.pieces.filter((p) => p.color === side);
  const kings = mine.filter((p) => p.king).length;
  return `${side === 'black' ? 'Black' : 'White'} ${mine.length}${kings ? ` (${kings} ${kings === 1 ? 'king' : 'kings'})` : ''}`;
}

/** The position, Black at the top, the last move's squares lit; an image with its pieces counted in words. */
export function renderSmallBoard(b: BoardSummary): string {
  const out: string[] = [];
  const last = b.last ? `, last move ${b.last.text}` : '';
  out.push(
    `<svg class="mini" viewBox="-0.2 -0.2 8.4 8.4" role="img" aria-label="Position: ${esc(countWords(b, 'black'))}, ${esc(countWords(b, 'white'))}${esc(last)}">`,
  );
  out.push('<rect class="mini-frame" x="-0.2" y="-0.2" width="8.4" height="8.4" rx="0.25"/><rect class="light" width="8" height="8"/>');
  const lit = new Map<number, string>(
    b.last
      ? [
          [b.last.from, 'last-from'],
          [b.last.to, 'last-to'],
        ]
      : [],
  );
  for (let sq = 1; sq <= 32; sq++) {
    const { x, y } = squareXY(sq, false);
    out.push(`<rect class="dark" x="${x}" y="${y}" width="1" height="1"/>`);
    const cls = lit.get(sq);
    if (cls) out.push(`<rect class="mark ${cls}" x="${x}" y="${y}" width="1" height="1"/>`);
  }
  for (const p of b.pieces) {
    const { x, y } = squareXY(p.square, false);
    const k = p.color === 'black' ? 'b' : 'w';
    const cx = f2(x + 0.5),
      cy = f2(y + 0.5);
    out.push(`<circle class="pc pc-${k}" cx="${cx}" cy="${cy}" r="0.38"/>`);
    if (p.king) out.push(`<path class="crown crown-${k}" transform="translate(${cx} ${cy}) scale(1.3)" d="${CROWN}"/>`);
  }
  out.push('</svg>');
  return out.join('');
}

// ------------------------------------------------------------------ a card

/** A side's clock as shown: the one-board page's clock face (render.ts). */
export const clockText = clockFace;

function playerRow(b: BoardSummary, side: Side, clock: ClockState | null): string {
  const name = (b.tags[side === 'black' ? 'Black' : 'White'] ?? '').trim();
  const shown = name && name !== '?' ? name : side === 'black' ? 'Black' : 'White';
  const running = clock?.running === side && b.result === '*';
  const toMove = b.turn === side && b.result === '*';
  const called = clock && (clock.flagged === side || clock.perMove?.timeCalled === side);
  const clockHtml = clock
    ? `<span class="cc-clock${running ? ' running' : ''}${called ? ' called' : ''}" data-clock="${side}">${esc(clockText(clock, side))}</span>`
    : '';
  return (
    `<div class="cc-player${toMove ? ' to-move' : ''}" data-side="${side}"><span class="pc-dot pc-${side === 'black' ? 'b' : 'w'}" aria-hidden="true"></span>` +
    `<span class="cc-name">${esc(shown)}${name && name !== '?' ? `<span class="sr-only"> (${side})</span>` : ''}` +
    `${toMove ? '<span class="cc-turn"><span aria-hidden="true"> ◂</span><span class="sr-only">, to move</span></span>' : ''}</span>${clockHtml}</div>`
  );
}

const TONE_ICON: Record<string, string> = { ok: '✓', busy: '…', warn: '!', bad: '✕', off: '∅', done: '⚑', idle: '○' };

/**
 * The arbiter's tools for one board: its full page with every control, and
 * the corrections form (club-correct.ts: replace or delete moves, set the
 * result, adjust a clock), which goes through the server's journalled
 * `correct` command, never straight to the board.
 */
export function arbiterTools(b: BoardSummary, opts: ClubRenderOptions): string {
  return (
    `<div class="cc-tools" data-tools="${esc(b.id)}">` +
    `<a class="btn small" data-open="${esc(b.id)}" href="${esc(boardHref(b.id, opts))}">Open board ${b.number} with controls</a>` +
    `<button type="button" class="btn small" data-correct="${esc(b.id)}" aria-controls="club-correct">Correct board ${b.number}…</button>` +
    `</div>`
  );
}

/** One board's card: a labelled region (its heading names the board). */
export function renderCard(e: BoardEntry, now: number, opts: ClubRenderOptions & { live: boolean }): string {
  const b = e.board;
  const id = cardId(b.id);
  const { label, tone } = glance(e, now, opts.live);
  const clock = clockNow(e, now, opts.live);
  const moves = movesPlayed(b.plies);
  const result = resultWords(b.result);
  const detail = stateDetail(b);
  const say = detail ? `<p class="cc-say">${esc(detail)}</p>` : '';
  const link =
    opts.mode === 'arbiter'
      ? arbiterTools(b, opts)
      : `<a class="cc-open" data-open="${esc(b.id)}" href="${esc(boardHref(b.id, opts))}">Follow board ${b.number}<span class="sr-only">: ${esc(nameLine(b))}</span> with review</a>`;
  return (
    // tabindex -1: the arbiter's list links here (#board-…), and the focus follows the link.
    `<section class="club-card tone-${tone}" id="${id}" data-board="${esc(b.id)}" data-state="${b.state}" aria-labelledby="${id}-title" tabindex="-1">` +
    `<header class="cc-head"><h3 id="${id}-title">Board ${b.number}</h3>` +
    `<span class="cc-state tone-${tone}" data-state-label><span class="cc-icon" aria-hidden="true">${TONE_ICON[tone]}</span>${esc(label)}</span></header>` +
    `<div class="cc-body"><div class="cc-board">${renderSmallBoard(b)}</div>` +
    `<div class="cc-info">${playerRow(b, 'black', clock)}${playerRow(b, 'white', clock)}` +
    `<p class="cc-moves" data-moves="${moves}">${moves === 1 ? '1 move' : `${moves} moves`}${b.last ? ` · last <span class="cc-last">${esc(b.last.text)}</span>` : ''}</p>` +
    (result ? `<p class="cc-result" data-result="${esc(b.result)}">${esc(result)}</p>` : '') +
    say +
    `</div></div>${link}</section>`
  );
}

/** "Ann – Bob" (Black first, as PDN lists them). */
function nameLine(b: BoardSummary): string {
  const n = (k: string, d: string) => ((b.tags[k] ?? '').trim() && b.tags[k] !== '?' ? b.tags[k]!.trim() : d);
  return `${n('Black', 'Black')} – ${n('White', 'White')}`;
}

// ------------------------------------------------------------------ the page's regions

/** Every board in number order under its Event/Round heading. */
export function renderGrid(s: ClubState, now: number, opts: ClubRenderOptions): string {
  if (!s.loaded) return `<p class="club-note">${s.connection === 'forbidden' ? 'No boards to show.' : 'Loading the boards…'}</p>`;
  const groups = boardGroups(s);
  if (!groups.length) return '<p class="club-note">No boards in this room yet.</p>';
  const live = s.connection === 'open';
  return groups
    .map(
      (g, i) =>
        // Boards without an Event or Round still sit under a heading (read by screen readers: h1 → h2 → h3).
        `<div class="club-group">${g.title ? `<h2 class="club-heading" id="group-${i}">${esc(g.title)}</h2>` : `<h2 class="sr-only" id="group-${i}">Boards</h2>`}` +
        `<div class="club-grid">${g.boards.map((e) => renderCard(e, now, { ...opts, live })).join('')}</div></div>`,
    )
    .join('');
}

/** The arbiter's list at the top: boards needing attention now (illegal, disconnected, time called), each linked to its page. */
export function renderAlerts(s: ClubState, now: number, opts: ClubRenderOptions): string {
  if (opts.mode !== 'arbiter' || !s.loaded) return '';
  const list = needsAttention(s, now);
  if (!list.length) return '<p class="club-calm" data-alerts="0"><span aria-hidden="true">✓</span> No board needs you.</p>';
  const kindWord = { illegal: 'Illegal', disconnected: 'Disconnected', time: 'Time' } as const;
  const items = list
    .map(
      (a) =>
        `<li class="alert-${a.kind}" data-alert="${a.kind}" data-board="${esc(a.entry.board.id)}">` +
        `<span><a href="#${cardId(a.entry.board.id)}">Board ${a.entry.board.number}</a> <strong>${kindWord[a.kind]}:</strong> ${esc(a.text)}</span>` +
        `<a class="btn small" href="${esc(boardHref(a.entry.board.id, opts))}">Open<span class="sr-only"> board ${a.entry.board.number}</span></a></li>`,
    )
    .join('');
  return `<h2 id="alerts-title">${list.length === 1 ? '1 board needs you' : `${list.length} boards need you`}</h2><ul class="club-alert-list" data-alerts="${list.length}">${items}</ul>`;
}

/** The connection pill: live, connecting, reconnecting in n s, or refused; on a hub cut off from its broker, not live. */
export function renderClubConnection(s: ClubState, now: number, broker: { connected: boolean } | null = null): string {
  if (s.connection === 'open' && broker && !broker.connected)
    return '<span class="pill pill-bad" data-connection="open" data-broker="down"><span class="dot" aria-hidden="true"></span>Cut off from the boards (the broker)</span>';
  const [cls, label] =
    s.connection === 'open'
      ? ['pill-ok', 'Live']
      : s.connection === 'connecting'
        ? ['pill-bad', 'Connecting…']
        : s.connection === 'forbidden'
          ? ['pill-bad', 'Not allowed']
          : ['pill-bad', `Reconnecting${s.retryAt !== null && s.retryAt > now ? ` in ${Math.ceil((s.retryAt - now) / 1000)} s` : '…'}`];
  return `<span class="pill ${cls}" data-connection="${s.connection}"><span class="dot" aria-hidden="true"></span>${esc(label)}</span>`;
}

/** The server's words as a sentence: a capital first, a full stop last. */
const sentence = (text: string): string => {
  const t = text.trim();
  return t.charAt(0).toUpperCase() + t.slice(1) + (/[.!?]$/.test(t) ? '' : '.');
};

/** What went wrong, in the server's words: a refusal says what to do. */
export function renderProblem(s: ClubState, opts: ClubRenderOptions): string {
  if (!s.problem) return '';
  if (s.connection !== 'forbidden') return `<p class="club-problem" role="status">${esc(sentence(s.problem))}</p>`;
  const hint =
    opts.mode === 'arbiter'
      ? 'The arbiter’s page needs the control token: open it as /arbiter?token=… with the token printed when the service started.'
      : 'This server does not let this page watch the boards.';
  return `<p class="club-problem forbidden" role="alert" data-forbidden><strong>Not allowed.</strong> ${esc(sentence(s.problem))} ${esc(hint)}</p>`;
}

/** Every region of the page by element id. */
export function renderClubRegions(s: ClubState, now: number, opts: ClubRenderOptions): Record<string, string> {
  return {
    'club-conn': renderClubConnection(s, now, opts.broker?.() ?? null),
    'club-problem': renderProblem(s, opts),
    'club-alerts': renderAlerts(s, now, opts),
    'club-boards': renderGrid(s, now, opts),
  };
}

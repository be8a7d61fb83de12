// Rendering as a function of the view state: the panels (status, move list,
// game controls, the simulated hand, the connection banner, the review bar;
// the archive is archive.ts's, the players and clocks players.ts's), each as an HTML string, and every
// region of the page together (the board and its evaluation bar are drawn by
// board.ts). Pure
// (no DOM): main.ts puts the strings into the page, tests read them in Node.
// Elements that take clicks carry data-act (and data-* arguments); main.ts
// turns those into commands.

import { at } from './base.ts';
import { RESULT_WORDS, other, sideName, type Move, type Piece, type Side, type Snapshot } from './model.ts';
import { canControl, canUseHand, isArmed, reviewView, statusHeadline, timeCall, type ViewState } from './state.ts';
import { fixSentences, piecesSentence, squareList } from '../words/index.ts';
import { button, esc } from './html.ts';
import { renderFarPlayer, renderHubLink } from './far-board.ts';
import { analysisProgress, hintBusy, takebackControls } from './engine-work.ts';
import { renderBoard, renderEvalBar } from './board.ts';
import { formatClock, renderPlayers } from './players.ts';

export { fixSentences, squareList };

export { esc };
export { archiveDate, renderArchive } from './archive.ts';
export { renderBoard, renderEvalBar, evaluationWords } from './board.ts';
export { clockFace, formatClock, renderPlayers } from './players.ts';

// ------------------------------------------------------------------ words

/** "White wins: Black resigned." */
export function outcomeWords(snap: Snapshot): string {
  const o = snap.outcome;
  const result = RESULT_WORDS[snap.result] ?? snap.result;
  if (!o) return `${result}.`;
  const loser = o.winner ? sideName(other(o.winner)) : '';
  const why: Record<string, string> = {
    'no-moves': `${loser} has no legal move`,
    resignation: `${loser} resigned`,
    time: `${loser} ran out of time`,
    agreement: 'by agreement',
    repetition: 'by threefold repetition',
    'forty-move': 'by the 40-move rule',
    arbiter: "by the arbiter's decision",
  };
  return why[o.reason] ? `${result}${o.winner ? ':' : ''} ${why[o.reason]}.` : `${result}.`;
}

// ------------------------------------------------------------------ panels

/** The status card's words under its headline: a sentence, a list (the squares to fix, the pieces to check), the piece to retract with. */
function statusDetail(
  s: ViewState,
  called: { side: Side; graceLeft: number } | null,
): { detail: string; list: string[]; retract: { square: number; moves: string[] } | null } {
  const snap = s.snap;
  const st = s.status;
  let detail = '';
  let list: string[] = [];
  let retract: { square: number; moves: string[] } | null = null;
  if (s.connection === 'refused') {
    detail = 'This page may not watch this board.';
  } else if (!snap) {
    detail = 'Waiting for the board service.';
  } else if (s.connection !== 'open') {
    detail =
      'The board service cannot be reached. The game shown is as it last stood; the clocks are stopped here until the connection is back.';
  } else if (!snap.board.connected) {
    detail = `${snap.board.detail || 'The board is disconnected'}. The game is kept; reconnect the board to go on.`;
  } else if (snap.calibration) {
    const c = snap.calibration;
    detail = c.message;
    if (c.total > 0) list = [];
  } else {
    switch (st.kind) {
      case 'setup':
        detail = st.fixes.length ? 'Place the pieces as shown:' : st.message || 'Set up the position shown.';
        list = fixSentences(st.fixes);
        break;
      case 'in-sync':
        if (called) break;
        if (snap.outcome || snap.result !== '*') detail = outcomeWords(snap);
        else if (snap.moves.length === 0 && !isStandardStart(snap.start)) {
          // Sensors count coins, not colours: a set-up position is checked by eye before play.
          detail = 'Board in sync. The sensors cannot see colours: check them before the first move.';
          list = [piecesSentence(snap.pieces, 'black'), piecesSentence(snap.pieces, 'white')]
            .filter(Boolean)
            .map((t) => t[0].toUpperCase() + t.slice(1));
        } else detail = 'Board in sync.';
        break;
      case 'moving':
        if (called) break;
        detail = `${sideName(snap.turn)} is moving${s.differences.length ? ` (changed: ${squareList(s.differences)})` : ''}.`;
        break;
      case 'awaiting-crown':
        detail = `Stack a second coin on ${st.square} to make it a king.`;
        break;
      case 'illegal':
        detail = st.alert.message;
        list = fixSentences(st.alert.fixes);
        if (st.alert.retract) retract = st.alert.retract;
        break;
    }
  }
  return { detail, list, retract };
}

/** The big status card: the board's state at a glance and what to do. */
export function renderStatus(s: ViewState, now?: number): string {
  const h = statusHeadline(s, now);
  const called = h.tone === 'time' ? timeCall(s, now) : null;
  const snap = s.snap;
  const st = s.status;
  const { detail, list, retract } = statusDetail(s, called);
  const over = !!snap && (snap.outcome !== null || snap.result !== '*');
  // (A finished game is not "in order": its icon is a flag, not a tick.)
  const icon =
    over && h.tone === 'ok'
      ? '⚑'
      : { ok: '✓', busy: '↻', warn: '♛', bad: '!', off: '×', time: '!', idle: st.kind === 'setup' && snap ? '+' : '…' }[h.tone];
  // Time called: what to do and the grace left, counted down (main.ts updates [data-grace] between renders).
  const timeLine = called
    ? `<p class="status-detail time-call" data-time-called="${called.side}">${sideName(called.side)} must move within <strong class="grace" data-grace="${called.side}">${formatClock(called.graceLeft)}</strong> or lose on time.</p>`
    : '';
  const offer = snap?.drawOffer ? `<p class="offer">${sideName(snap.drawOffer)} offers a draw.</p>` : '';
  const c = snap?.computer;
  const computer =
    c && !snap?.outcome
      ? `<p class="computer" role="status">The computer (${sideName(c.side)}, level ${c.level}) ${c.move ? `plays <strong>${esc(c.move.text)}</strong>: carry it out on the board.` : c.thinking ? 'is thinking…' : snap?.turn === c.side ? 'moves next.' : 'waits for your move.'}</p>`
      : '';
  const remote = snap?.remote && !snap.outcome ? renderFarPlayer(snap.remote, snap.turn, now) : '';
  const notice = s.notice && s.connection === 'open' ? `<p class="notice" role="note">${esc(s.notice.text)}</p>` : '';
  const kind = snap && s.connection !== 'open' ? 'offline' : snap && !snap.board.connected ? 'lost' : st.kind;
  return (
    `<div class="status status-${h.tone} st-${kind}${over ? ' game-over' : ''}" data-status="${kind}"${called ? ' data-time="called"' : ''}>` +
    `<div class="status-head"><span class="status-icon" aria-hidden="true">${icon}</span><h2 class="status-title">${esc(h.title)}</h2></div>` +
    timeLine +
    (detail ? `<p class="status-detail">${esc(detail)}</p>` : '') +
    (list.length ? `<ul class="fixes">${list.map((t) => `<li>${esc(t)}</li>`).join('')}</ul>` : '') +
    (retract
      ? `<p class="retract" data-retract="${retract.square}"><strong>Use the piece on ${retract.square}</strong>: ${esc(retract.moves.join(retract.moves.length > 2 ? ', ' : ' or '))}</p>`
      : '') +
    (snap?.calibration && snap.calibration.total > 0
      ? `<div class="progress" role="progressbar" aria-valuemin="0" aria-valuemax="${snap.calibration.total}" aria-valuenow="${snap.calibration.done}"><span style="width:${Math.round((100 * snap.calibration.done) / snap.calibration.total)}%"></span></div>`
      : '') +
    computer +
    remote +
    notice +
    offer +
    `</div>`
  );
}

/** "Black 11 (1 king)": what one side has on the board in a position. */
function material(pieces: readonly Piece[], side: Side): string {
  const own = pieces.filter((p) => p.color === side);
  const kings = own.filter((p) => p.king).length;
  return `${sideName(side)} ${own.length}${kings ? ` (${kings} king${kings > 1 ? 's' : ''})` : ''}`;
}

/** Black men on 1–12, White men on 21–32, no kings: the start position (no colour check needed). */
function isStandardStart(start: readonly Piece[]): boolean {
  return start.length === 24 && start.every((p) => !p.king && (p.color === 'black' ? p.square <= 12 : p.square >= 21));
}

/** The review bar: which move the board shows, steps, and the way back to live. */
export function renderReview(s: ViewState): string {
  const rv = reviewView(s);
  const snap = s.snap;
  const step = (to: string, label: string, title: string, off: boolean) =>
    `<button type="button" class="btn small step" id="rv-${to}" data-act="review" data-to="${to}" title="${title}" aria-label="${title}"${off ? ' disabled' : ''}>${label}</button>`;
  if (!rv) {
    // Shown from the start, its buttons off until there is a move: it keeps its place (nothing below it jumps at the first move).
    if (!snap) return '';
    const none = !snap.moves.length;
    return `<div class="review-bar live" role="toolbar" aria-label="Step through the game">${step('first', '«', 'First position', none)}${step('prev', '◀', 'Previous move (←)', none)}<span class="review-label">Live</span>${step('next', '▶', 'Next move (→)', true)}${step('last', '»', 'Last move', true)}</div>`;
  }
  const rec = rv.archived && s.review?.record ? s.review.record : null;
  const whose = rec
    ? `${esc(rec.tags.Black || 'Black')} – ${esc(rec.tags.White || 'White')}${rec.tags.Date ? `, ${esc(rec.tags.Date)}` : ''} · `
    : '';
  const what = rv.ply === 0 ? 'the start position' : `move ${esc(rv.moveLabel)}`;
  const note = !rec && rv.ply > 0 ? snap?.analysis?.marks.find((a) => a.ply === rv.ply - 1) : undefined;
  return (
    `<div class="review-bar reviewing" role="toolbar" aria-label="Step through the game" data-ply="${rv.ply}">` +
    step('first', '«', 'First position', rv.ply === 0) +
    step('prev', '◀', 'Previous move (←)', rv.ply === 0) +
    `<span class="review-label" role="status">${rec ? 'Archived game' : 'Reviewing'}: ${whose}${what} (${rv.ply}/${rv.total})</span>` +
    (note ? `<span class="review-note" data-mark="${esc(note.mark)}">${esc(note.comment)}</span>` : '') +
    `<span class="review-material" data-material="${material(rv.pieces, 'black')}/${material(rv.pieces, 'white')}">${material(rv.pieces, 'black')} · ${material(rv.pieces, 'white')}</span>` +
    step('next', '▶', 'Next move (→)', rec !== null && rv.ply === rv.total) +
    step('last', '»', 'Last move', rec !== null && rv.ply === rv.total) +
    `<button type="button" class="btn small primary" id="rv-live" data-act="review" data-to="live">${rec ? 'Close — back to live' : 'Back to live'}</button>` +
    (rec
      ? `<a class="btn small" id="rv-download" href="${at(`/api/games/${encodeURIComponent(rec.id)}.pdn`)}" download="${esc(rec.id)}.pdn">Download</a>`
      : '') +
    `</div>`
  );
}

/** The move list in PDN notation, numbered, with the result. */
export function renderMoves(s: ViewState): string {
  const snap = s.snap;
  if (!snap) return '<h2>Moves</h2>';
  // Replaying an archived game: its moves (clickable), its result; the live game's come back with "back to live".
  const record = s.review?.record ?? null;
  const moves = record ? record.moves : snap.moves;
  const rows = new Map<number, { black?: Move; white?: Move; bi?: number; wi?: number }>();
  moves.forEach((m, i) => {
    const r = rows.get(m.number) ?? {};
    if (m.side === 'black') {
      r.black = m;
      r.bi = i;
    } else {
      r.white = m;
      r.wi = i;
    }
    rows.set(m.number, r);
  });
  // The move the board shows: the last one live, the reviewed one while reviewing.
  const reviewing = s.review !== null;
  const shownIndex = reviewing ? s.review!.ply - 1 : moves.length - 1;
  // The engine's analysis of the live game (finished): ? and ?? after the moves it marks, the better move as the tooltip.
  const marks = new Map((!record && snap.analysis ? snap.analysis.marks : []).map((a) => [a.ply, a]));
  const cell = (m: Move | undefined, i: number | undefined): string => {
    if (!m) return '<td class="mv empty">…</td>';
    const a = i === undefined ? undefined : marks.get(i);
    const mark = a ? `<span class="mark-${a.mark === '??' ? 'blunder' : 'mistake'}" title="${esc(a.comment)}">${a.mark}</span>` : '';
    return `<td class="mv${i === shownIndex ? ' current' : ''}${m.crowned ? ' crowned' : ''}" data-act="review" data-to="${i! + 1}" id="mv-${i! + 1}" tabindex="0" role="button" aria-label="Show the position after ${m.number}${m.side === 'black' ? '.' : '...'} ${esc(m.text)}${a ? `, ${esc(a.comment)}` : ''}"${i === shownIndex ? ' aria-current="step"' : ''}>${esc(m.text)}${mark}</td>`;
  };
  const body = [...rows.entries()]
    .sort(([a], [b]) => a - b)
    .map(([n, r]) => `<tr><th scope="row">${n}.</th>${cell(r.black, r.bi)}${cell(r.white, r.wi)}</tr>`)
    .join('');
  const result = record ? record.result : snap.result;
  const over = record ? true : snap.outcome !== null || snap.result !== '*';
  const foot = over
    ? `<p class="result" data-result="${esc(result)}"><strong>${esc(result)}</strong> ${esc(RESULT_WORDS[result] ?? (result === '*' ? 'unfinished' : ''))}</p>`
    : `<p class="turn">${sideName(snap.turn)} to move</p>`;
  const claim =
    !record && snap.drawClaim && canControl(s) && !over
      ? button(
          'claim-draw',
          snap.drawClaim === 'repetition' ? 'Claim draw (threefold repetition)' : 'Claim draw (40-move rule)',
          {},
          'primary',
        )
      : '';
  // After the game: ask the engine for its analysis; once done, the annotated PDN.
  const analysis =
    !record && over && snap.moves.length
      ? snap.analysis?.running
        ? `<div class="analysis" role="status"><span><span class="spinner" aria-hidden="true"></span><span id="analysis-progress">${analysisProgress(snap)}</span></span><progress id="analysis-bar" max="${snap.analysis.total ?? 1}" value="${snap.analysis.done ?? 0}"></progress>${canControl(s) ? button('cancel', 'Cancel', { what: 'analysis' }, 'small') : ''}</div>`
        : snap.analysis
          ? `<p class="analysis">${snap.analysis.marks.length ? `${snap.analysis.marks.length} move${snap.analysis.marks.length > 1 ? 's' : ''} marked.` : 'No mistakes found.'} <a class="btn small" id="dl-annotated" href="${at('/api/current.pdn?annotated=1')}" download="crownhead-game-annotated.pdn">Download annotated PDN</a></p>`
          : canControl(s)
            ? button('analyse', 'Analyse game', {}, '', s.asked.analyse !== undefined)
            : ''
      : '';
  return (
    `<div class="moves-head"><h2>${record ? 'Moves of the archived game' : 'Moves'}</h2>${foot}</div>` +
    (moves.length
      ? `<div class="moves-scroll"><table class="movelist${reviewing ? ' reviewing' : ''}" aria-label="Moves (click one to see its position)"><colgroup><col class="c-num"><col class="c-mv"><col class="c-mv"></colgroup><tbody>${body}</tbody></table></div>`
      : '<p class="empty-moves">No moves yet.</p>') +
    claim +
    analysis +
    (record ? '' : correctionsList(snap))
  );
}

/** The arbiter's corrections of the game, in its history: when, who, what, why. */
function correctionsList(snap: Snapshot): string {
  const list = snap.corrections ?? [];
  if (!list.length) return '';
  const item = (c: (typeof list)[number]) =>
    `<li><time datetime="${new Date(c.at).toISOString()}">${esc(new Date(c.at).toISOString().slice(11, 16))}</time> ${esc(c.by)}: ${esc(c.say)}${c.reason ? ` — ${esc(c.reason)}` : ''}</li>`;
  return `<section class="corrections" aria-label="Arbiter's corrections"><h3>Arbiter's corrections</h3><ol>${list.map(item).join('')}</ol></section>`;
}

/** Game controls: takeback and the downloads (the forms are static, see renderForms). */
export function renderGameControls(s: ViewState, now: number = Date.now()): string {
  const control = canControl(s);
  const snap = s.snap;
  const parts: string[] = [];
  if (control && snap && !snap.options.tournament && snap.moves.length) {
    // After a result only a game ended by its last move (no moves left, an automatic draw) can be taken back, with a confirmation;
    // a resignation, an agreed or claimed draw or a flag is final (the server refuses too).
    const o = snap.outcome;
    const over = o !== null || snap.result !== '*';
    const reopenable =
      o !== null && (o.reason === 'no-moves' || (snap.options.autoDraw && (o.reason === 'repetition' || o.reason === 'forty-move')));
    if (!over) parts.push(takebackControls(snap));
    else if (reopenable) {
      const armed = isArmed(s, 'takeback', now);
      parts.push(
        button(
          'takeback',
          armed ? 'Confirm: reopen the finished game?' : 'Take back last move (reopens the game)',
          {},
          `danger${armed ? ' armed' : ''}`,
        ),
      );
    }
  }
  // The coach (not in tournament mode): the engine's move for the side to move, said quietly. Key: H.
  if (
    control &&
    snap &&
    !snap.options.tournament &&
    !snap.outcome &&
    snap.result === '*' &&
    !(snap.computer && snap.computer.side === snap.turn)
  ) {
    // While the engine thinks: a spinner, and the button can't be pressed again (Cancel stops it).
    if (hintBusy(s.asked, snap))
      parts.push(
        `<button type="button" id="b-hint" class="btn busy" data-act="hint" disabled aria-busy="true"><span class="spinner" aria-hidden="true"></span>Hint: thinking…</button>`,
        button('cancel', 'Cancel hint', { what: 'hint' }, 'small'),
      );
    else parts.push(button('hint', 'Hint', {}, ''));
  }
  // After a game: the other side of its ballot (a ballot pair), or the next game with the first player alternating.
  if (control && snap && (snap.outcome !== null || snap.result !== '*')) {
    if (snap.ballot !== null || /^11-man /.test(snap.tags.Ballot ?? ''))
      parts.push(button('next-game', 'Play the other side of this ballot', { kind: 'other-side' }, 'primary'));
    parts.push(button('next-game', 'Next game', { kind: 'next' }, ''));
  }
  parts.push(`<a class="btn" id="dl-pdn" href="${at('/api/current.pdn')}" download="crownhead-game.pdn">Download PDN</a>`);
  parts.push(button('archive-open', 'Past games', {}, ''));
  if (control && snap && !snap.calibration && !s.server?.sim) parts.push(button('calibrate', 'Calibrate board', {}, ''));
  // The builder's view of the raw sensors (sensors.ts), for a page with control rights.
  if (control) parts.push(button('sensors-open', 'Sensor view', {}, ''));
  return `<div class="row">${parts.join('')}</div>`;
}

/** The simulated hand: mode switch, what the hand holds, and the set-up button. */
export function renderHand(s: ViewState): string {
  if (!canUseHand(s)) return '';
  const mode = (m: 'move' | 'crown', label: string) =>
    `<button type="button" id="hm-${m}" class="seg${s.handMode === m ? ' on' : ''}" data-act="hand-mode" data-mode="${m}" aria-pressed="${s.handMode === m}">${label}</button>`;
  const held =
    s.held === 2 && s.heldStack.length === 1 ? 'a king (2 coins)' : s.held === 1 ? 'one coin' : s.held ? `${s.held} coins` : 'nothing';
  return (
    `<div class="hand-bar"><span class="hand-label">Simulated board</span>` +
    `<div class="segmented" role="group" aria-label="Hand mode">${mode('move', 'Lift / place')}${mode('crown', 'Crown')}</div>` +
    `<span class="held" data-held="${s.held}">In hand: ${held}</span>` +
    button('hand-setup', 'Set up board', {}, 'primary') +
    `</div><p class="hint">Click a square to lift its coins or put a coin down; Shift-click (or Crown mode) stacks a second coin.</p>`
  );
}

/** The connection banner and the error toast. */
export function renderBanner(s: ViewState, now: number): string {
  const parts: string[] = [];
  if (s.connection === 'refused') {
    // Said once, in words: the page does not try again.
    const why = (s.refusal ?? 'this server does not let this page watch the board').trim();
    parts.push(
      `<div class="banner banner-error" role="alert" data-refused><span><strong>Not allowed.</strong> ${esc(why.charAt(0).toUpperCase() + why.slice(1))}${/[.!?]$/.test(why) ? '' : '.'} The page does not try again.</span></div>`,
    );
  } else if (s.connection === 'reconnecting') {
    const secs = Math.max(0, Math.ceil((s.retryAt - now) / 1000));
    parts.push(
      `<div class="banner banner-warn" role="status">Connection lost — reconnecting${secs ? ` in ${secs} s` : '…'} (attempt ${s.attempts})</div>`,
    );
  } else if (s.connection === 'connecting' && !s.snap) {
    parts.push('<div class="banner banner-info" role="status">Connecting to the board service…</div>');
  }
  if (s.server?.readOnly) {
    parts.push(
      `<div class="banner banner-info">Read-only view${s.server.tokenRequired ? ': to control the game from this device, open the address the service printed (with ?token=…)' : ''}</div>`,
    );
  }
  if (s.server?.hub) parts.push(renderHubLink(s.server.hub, now));
  if (s.storage && !s.storage.ok) {
    const st = s.storage;
    const damaged = st.problem === 'damaged-journal' || st.problem === 'unresumable';
    const head = damaged ? 'The last game’s record was damaged.' : 'Games are not being saved.';
    parts.push(
      `<div class="banner banner-error" role="alert" data-storage="${damaged ? 'damaged' : 'failing'}"><span><strong>${head}</strong> ${esc(st.message)}${st.choice ? ` ${esc(st.choice)}` : ''}</span></div>`,
    );
  }
  if (s.error)
    parts.push(
      `<div class="banner banner-error" role="alert"><span>${esc(s.error.message)}</span>${button('dismiss-error', 'Dismiss', {}, 'small')}</div>`,
    );
  return parts.join('');
}

/** The board connection pill in the header. */
export function renderConnection(s: ViewState): string {
  const snap = s.snap;
  const socket = s.connection === 'open';
  const board = snap?.board.connected ?? false;
  const label = !socket
    ? 'Offline'
    : s.review
      ? 'Reviewing'
      : !snap
        ? 'Connecting'
        : board
          ? s.server?.sim
            ? 'Simulated board'
            : 'Board connected'
          : 'Board lost';
  return `<span class="pill ${socket && board ? 'pill-ok' : 'pill-bad'}" data-board="${socket && board ? 'connected' : 'lost'}"><span class="dot" aria-hidden="true"></span>${esc(label)}</span>`;
}

const ICON: Record<string, string> = {
  soundOn: '<path d="M3 9h4l5-4v14l-5-4H3z"/><path d="M15.5 8.5a5 5 0 0 1 0 7M18 6a8.5 8.5 0 0 1 0 12" fill="none"/>',
  soundOff: '<path d="M3 9h4l5-4v14l-5-4H3z"/><path d="M16 9l5 6M21 9l-5 6" fill="none"/>',
  speech: '<path d="M4 5h16v10H10l-5 4v-4H4z" fill="none"/><path d="M8 9h8M8 12h5" fill="none"/>',
  flip: '<path d="M7 4v15M7 4 4 7M7 4l3 3M17 20V5M17 20l-3-3M17 20l3-3" fill="none"/>',
};
const icon = (name: string): string => `<svg class="icon" viewBox="0 0 24 24" aria-hidden="true">${ICON[name]}</svg>`;

/** The header toggles (sound, speech, flip). */
export function renderToggles(s: ViewState): string {
  const t = (act: string, on: boolean, ic: string, label: string, title: string) =>
    `<button type="button" id="t-${act}" class="toggle${on ? ' on' : ''}" data-act="${act}" aria-pressed="${on}" title="${esc(title)}">${icon(ic)}<span>${label}</span></button>`;
  // The evaluation bar is the service's (every page sees it); not offered in tournament mode.
  const evalToggle =
    s.snap && !s.snap.options.tournament && canControl(s)
      ? `<button type="button" id="t-evaluation" class="toggle${s.snap.evaluation ? ' on' : ''}" data-act="toggle-evaluation" aria-pressed="${!!s.snap.evaluation}" title="The engine's view of the position after each move">${icon('speech')}<span>Evaluation</span></button>`
      : '';
  return (
    t('toggle-sound', s.sound, s.sound ? 'soundOn' : 'soundOff', 'Sound', 'Tones for moves and alerts') +
    t('toggle-speech', s.speech, 'speech', 'Speech', 'Speak moves and alerts aloud') +
    evalToggle +
    `<button type="button" id="t-flip" class="toggle${s.flipped ? ' on' : ''}" data-act="flip" aria-pressed="${s.flipped}" title="Turn the board around">${icon('flip')}<span>Flip board</span></button>`
  );
}

/** The static forms (new game, names); rendered once, shown when the page may control the game. */
export function renderForms(): string {
  return `<details class="card form-card" id="new-game-card"><summary>New game</summary>
<form id="new-game-form" class="form" autocomplete="off">
<fieldset class="choice"><legend>Start from</legend>
<label><input type="radio" name="from" value="start" checked> Start position</label>
<label><input type="radio" name="from" value="fen"> FEN</label>
<label><input type="radio" name="from" value="ballot"> ACF ballot</label>
<label><input type="radio" name="from" value="eleven"> Eleven-man ballot</label>
</fieldset>
<label class="field f-start">First to move <select name="first"><option value="black">Black</option><option value="white">White</option><option value="random">Random</option></select></label>
<label class="field f-fen">FEN <input name="fen" id="ng-fen" placeholder="B:W18,24,27,28,K10:B12,16,20,K22" spellcheck="false" aria-describedby="ng-fen-help ng-error"><span class="help" id="ng-fen-help">Side to move, then each side's squares; K marks a king. Example: <code>W:W18,24,K10:B12,16</code></span></label>
<label class="field f-ballot">Ballot (1–174) <input name="ballot" id="ng-ballot" type="number" min="1" max="174" placeholder="random"></label>
<label class="f-ballot check"><input type="checkbox" name="crossboardOnly" id="ng-crossboard"> A random ballot is never a mail-play one</label>
<label class="field f-eleven">Eleven-man ballot (1–2400) <input name="eleven" id="ng-eleven" type="number" min="1" max="2400" placeholder="random"></label>
<div class="field-row"><label class="field">Clock <select name="tc" id="ng-tc"><option value="">No clock</option><option value="5m+3s">5 min + 3 s</option><option value="10m+5s">10 min + 5 s</option><option value="15m">15 min</option><option value="30m">30 min</option><option value="40/90m,30m">40 moves in 90 min, then 30 min</option><option value="5m/move,1m/forced">5 min a move, 1 min for a forced capture (ACF)</option><option value="custom">Other…</option></select></label>
<label class="field f-tc-custom">Time control <input name="tcText" id="ng-tc-text" placeholder="e.g. 3m+2s, 40/90m,30m or 5m/move,1m/forced" spellcheck="false"></label></div>
<div class="field-row"><label class="field">Opponent <select name="computer" id="ng-computer"><option value="">Two players</option><option value="white">The computer plays White</option><option value="black">The computer plays Black</option></select></label>
<label class="field f-level">Level <select name="level" id="ng-level">${Array.from({ length: 10 }, (_, i) => `<option value="${i + 1}"${i + 1 === 5 ? ' selected' : ''}>${i + 1}${i === 0 ? ' (fast, fallible)' : i === 9 ? ' (full strength)' : ''}</option>`).join('')}</select></label></div>
<fieldset class="choice"><legend>Rules</legend>
<label><input type="checkbox" name="huffing" id="ng-huffing"> Huffing</label>
<label><input type="checkbox" name="crownContinue" id="ng-crown-continue"> Crowned men keep jumping</label>
</fieldset>
<div class="field-row"><label class="field">Black <input name="Black" maxlength="200"></label><label class="field">White <input name="White" maxlength="200"></label></div>
<label class="field">Event <input name="Event" maxlength="200"></label>
<p class="form-error" id="ng-error" role="alert" hidden></p>
<div class="row"><button type="submit" class="btn primary" id="ng-submit">Start new game</button></div>
</form></details>
<details class="card form-card" id="names-card"><summary>Players &amp; event</summary>
<form id="names-form" class="form" autocomplete="off">
<div class="field-row"><label class="field">Black <input name="Black" maxlength="200"></label><label class="field">White <input name="White" maxlength="200"></label></div>
<label class="field">Event <input name="Event" maxlength="200"></label>
<div class="row"><button type="submit" class="btn primary" id="names-submit">Save names</button></div>
</form></details>`;
}

/** The recent announcements (what was said), newest first. */
export function renderLog(s: ViewState): string {
  if (!s.log.length) return '';
  // Long alerts are cut to two lines; focus or hover shows all of it (and the title has it too).
  return `<ol class="log" aria-label="Recent announcements">${[...s.log]
    .reverse()
    .map((a) => `<li class="${a.urgent ? 'urgent' : a.quiet ? 'quiet' : ''}" tabindex="0" title="${esc(a.text)}">${esc(a.text)}</li>`)
    .join('')}</ol>`;
}

/** Every dynamic region of the page, keyed by the id of its container. */
export function renderRegions(s: ViewState, now: number): Record<string, string> {
  return {
    conn: renderConnection(s),
    toggles: renderToggles(s),
    banner: renderBanner(s, now),
    evalbar: renderEvalBar(s),
    board: renderBoard(s, { now }),
    review: renderReview(s),
    hand: renderHand(s),
    status: renderStatus(s, now),
    players: renderPlayers(s, now),
    moves: renderMoves(s),
    game: renderGameControls(s, now),
    log: renderLog(s),
  };
}

export type { Snapshot };

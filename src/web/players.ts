// The players panel: each side's row (name, whether it is to move, its clock,
// its draw and resign buttons, or where the player at another board is), and
// the game's line under them (event, ballot, round, rules, the clock's
// control and start/pause, the evaluation); the clock faces, also read by
// main.ts's tick and the club pages. Pure, like render.ts (which re-exports it).

import { other, sideName, type Clock, type Side, type Snapshot } from './model.ts';
import { canControl, clockNow, isArmed, type ViewState } from './state.ts';
import { button, esc } from './html.ts';
import { whereFrom } from './far-board.ts';
import { evaluationWords } from './board.ts';

/** A side's clock face: its time, "0:00" once flagged, "Time 0:42" (the grace period left) once time per move is called. */
export function clockFace(c: Clock, side: Side): string {
  if (c.flagged === side) return '0:00';
  if (c.perMove?.timeCalled === side) return `Time ${formatClock(c.perMove.graceLeft)}`;
  return formatClock(c[side]);
}

export function formatClock(ms: number): string {
  const t = Math.max(0, ms);
  if (t < 10_000) return `${Math.floor(t / 1000)}.${Math.floor((t % 1000) / 100)}`;
  const total = Math.ceil(t / 1000);
  const h = Math.floor(total / 3600),
    m = Math.floor((total % 3600) / 60),
    s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** What each player's row is drawn from, worked out once per render. */
interface Seats {
  s: ViewState;
  snap: Snapshot;
  clock: Clock | null;
  over: boolean;
  control: boolean;
  offline: boolean;
  now: number;
}

/** One side's row: swatch, name and role, its clock, and its actions. */
function playerRow(p: Seats, side: Side, pos: string): string {
  const { snap, clock, over } = p;
  const named = !!snap.tags[side === 'black' ? 'Black' : 'White'];
  const name = snap.tags[side === 'black' ? 'Black' : 'White'] || sideName(side);
  const toMove = !over && snap.turn === side;
  const t = clock ? clock[side] : 0;
  const clockHtml = clock
    ? `<div class="clock${clock.running === side && !p.offline ? ' running' : ''}${clock.flagged === side ? ' flagged' : ''}${clock.perMove?.timeCalled === side ? ' time-called' : ''}${t < 30_000 ? ' low' : ''}" data-clock="${side}" role="timer" aria-label="${sideName(side)}'s clock">${clockFace(clock, side)}</div>`
    : '';
  const buttons = playerButtons(p, side);
  return (
    `<div class="player player-${side} ${pos}${toMove ? ' to-move' : ''}" data-side="${side}">` +
    `<span class="swatch swatch-${side}" aria-hidden="true"></span>` +
    `<div class="player-name"><span class="who">${esc(name)}</span><span class="role">${[named ? sideName(side) : '', toMove ? 'to move' : ''].filter(Boolean).join(' · ')}</span></div>` +
    // (The actions' row is there even when empty: on a phone it keeps its height, and the board its place, when the game ends.)
    clockHtml +
    `<div class="player-actions">${buttons}</div>` +
    `</div>`
  );
}

/** A side's actions while the game goes on and the page has control: draw offer, accept or decline, resign (asked twice). */
function playerButtons(p: Seats, side: Side): string {
  const { s, snap, control, over, now } = p;
  let buttons = '';
  // (The player at the other board acts for their side from their board: no buttons here for them.)
  const farAway = snap.remote?.side === side;
  if (control && !over && farAway) buttons = `<span class="note">${whereFrom(snap.remote!)}</span>`;
  else if (control && !over) {
    const b: string[] = [];
    if (snap.drawOffer === other(side)) {
      b.push(button('accept-draw', 'Accept draw', { side }, 'small primary'), button('decline-draw', 'Decline', { side }, 'small'));
    } else if (snap.drawOffer !== side) {
      b.push(button('offer-draw', 'Offer draw', { side }, 'small'));
    } else {
      b.push('<span class="note">Draw offered</span>');
    }
    b.push(
      button(
        'resign',
        isArmed(s, `resign-${side}`, now) ? 'Confirm resign?' : 'Resign',
        { side },
        `small danger${isArmed(s, `resign-${side}`, now) ? ' armed' : ''}`,
      ),
    );
    buttons = b.join('');
  }
  return buttons;
}

/** The clock's start/pause and its note (control, a forced capture's time, not started yet), while the game goes on. */
function clockControls(p: Seats): string {
  const { clock, over, control } = p;
  const pm = clock?.perMove;
  const forcedNote = pm && pm.forced && pm.side && !over ? `one capture only: ${formatClock(pm.limit)} for this move` : '';
  const note = clock
    ? [clock.control, forcedNote, !clock.started && !over ? 'clocks start with the first move' : ''].filter(Boolean).join(' · ')
    : '';
  return clock && !over
    ? `<div class="clock-ctl">${control ? (clock.running ? button('clock-pause', 'Pause clock', {}, 'small') : button('clock-start', 'Start clock', {}, 'small primary')) : ''}${note ? `<span class="note">${esc(note)}</span>` : ''}</div>`
    : '';
}

/** The game's line: its event, ballot or opening, round and rules when they are not the plain ones; empty when there is none. */
function eventLine(snap: Snapshot): string {
  // The game's rules when they are not the plain ones (huffing, crowned men jumping on, tournament).
  const rules = [
    snap.options.huffing ? 'huffing' : '',
    snap.options.crownContinue ? 'crowned men keep jumping' : '',
    snap.options.tournament ? 'tournament: no takebacks' : '',
  ]
    .filter(Boolean)
    .join(', ');
  // (A ballot pair's game says its round: "round 1.2" is the second game of the first pair.)
  const roundNote = snap.tags.Round
    ? ` <span class="round" data-round="${esc(snap.tags.Round)}">· round ${esc(snap.tags.Round)}</span>`
    : '';
  const rulesNote = roundNote + (rules ? ` <span class="rules" data-rules="${esc(rules)}">· ${esc(rules)}</span>` : '');
  // ("Ballot 51" alone when the tag says no more than its number: no dangling colon.)
  const opening = (snap.tags.Ballot ?? '').replace(/^ACF \d+\s*:?\s*/, '').trim();
  return snap.tags.Event
    ? `<p class="event">${esc(snap.tags.Event)}${snap.ballot ? ` · ballot ${snap.ballot}` : ''}${rulesNote}</p>`
    : snap.ballot
      ? `<p class="event">Ballot ${snap.ballot}${opening ? ': ' + esc(opening) : ''}${rulesNote}</p>`
      : snap.tags.Ballot
        ? `<p class="event">${esc(snap.tags.Ballot.replace(/^11-man /, 'Eleven-man ballot '))}${rulesNote}</p>`
        : rules
          ? `<p class="event"><span class="rules" data-rules="${esc(rules)}">Rules: ${esc(rules)}</span></p>`
          : '';
}

/** Players: names, side to move, clocks, and each side's resign/draw buttons; under them the game's line, clock controls, evaluation. */
export function renderPlayers(s: ViewState, now: number): string {
  const snap = s.snap;
  if (!snap) return '';
  const clock = clockNow(s, now);
  const over = snap.outcome !== null || snap.result !== '*';
  const p: Seats = { s, snap, clock, over, control: canControl(s), offline: s.connection !== 'open', now };
  const top: Side = s.flipped ? 'white' : 'black';
  const clockCtl = clockControls(p);
  const event = eventLine(snap);
  const ev = snap.evaluation;
  const evalLine = ev
    ? `<p class="eval-text" data-eval="${ev.score ?? ''}">Evaluation: <strong>${esc(evaluationWords(ev))}</strong></p>`
    : '';
  const extra = event + clockCtl + evalLine;
  // (On a phone the two rows go above and below the board, the rest after: style.css.)
  return playerRow(p, top, 'p-top') + playerRow(p, other(top), 'p-bottom') + (extra ? `<div class="players-extra">${extra}</div>` : '');
}

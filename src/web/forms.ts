// The page's two forms: the new-game form (filled from the current game: its
// clock, opponent and level, first player, rules and names; only the Opponent
// control chooses the computer) and the names form, turned into new-game and
// set-tags commands. main.ts wires them with what they need of the page.

import { type Command } from '../protocol/v1.ts';
import { isArmed, type Action, type ViewState } from './state.ts';
import { renderForms } from './render.ts';
import { formTimeControl } from './model.ts';

/** What the forms need of the page (main.ts). */
export interface FormDeps {
  state(): ViewState;
  dispatch(action: Action): void;
  render(): void;
  send(command: Command): void;
  gameInProgress(): boolean;
}

const $ = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;

type FormEls = HTMLFormControlsCollection & Record<string, HTMLInputElement | HTMLSelectElement | RadioNodeList>;
const val = (form: HTMLFormElement, name: string): string => {
  const el = (form.elements as FormEls)[name] as HTMLInputElement | HTMLSelectElement | RadioNodeList | undefined;
  return el ? String(el.value).trim() : '';
};
const setVal = (form: HTMLFormElement, name: string, v: string): void => {
  const el = (form.elements as FormEls)[name] as HTMLInputElement | undefined;
  if (el && document.activeElement !== el) el.value = v;
};

/** The computer's PDN name ("Crownhead (level 5)"): never a player's name in a form. */
const COMPUTER_NAME = /^Crownhead \(level \d+\)$/;

function fillNames(deps: FormDeps, form: HTMLFormElement): void {
  const tags = deps.state().snap?.tags ?? {};
  for (const k of ['Black', 'White', 'Event']) setVal(form, k, COMPUTER_NAME.test(tags[k] ?? '') ? '' : (tags[k] ?? ''));
}

/** The new-game form starts from the current game: its clock, opponent and level, first player and rules (names by fillNames). */
function fillNewGame(deps: FormDeps, ng: HTMLFormElement): void {
  const snap = deps.state().snap;
  if (!snap) return;
  // The clock: the listed choice that reads as the game's control ("10 min + 5 s"), else "Other…" with its TimeControl tag.
  const words = snap.clock?.control ?? '';
  const tc = ng.querySelector<HTMLSelectElement>('[name=tc]')!;
  const listed = words
    ? [...tc.options].find((o) => o.value !== 'custom' && (o.text === words || o.text.startsWith(`${words} (`)))
    : tc.options[0];
  setVal(ng, 'tc', listed ? listed.value : 'custom');
  if (!listed) setVal(ng, 'tcText', formTimeControl(snap.tags.TimeControl ?? ''));
  setVal(ng, 'computer', snap.computer?.side ?? '');
  if (snap.computer) setVal(ng, 'level', String(snap.computer.level));
  setVal(ng, 'first', snap.options.firstPlayer);
  (ng.querySelector('[name=huffing]') as HTMLInputElement).checked = snap.options.huffing;
  (ng.querySelector('[name=crownContinue]') as HTMLInputElement).checked = snap.options.crownContinue;
}

/** What main.ts calls on every render: a closed form is kept filled from the game, so it opens already right. */
export interface Forms {
  sync(): void;
}

/** The new-game command the form asks for: its names, clock, rules, opponent and start; null while the FEN it needs is empty (its field focused). */
function newGameCommand(ng: HTMLFormElement): Command | null {
  const tags: Record<string, string> = {};
  for (const k of ['Black', 'White', 'Event']) {
    const v = val(ng, k);
    if (v) tags[k] = v;
  }
  const from = val(ng, 'from');
  const tc = val(ng, 'tc') === 'custom' ? val(ng, 'tcText') : val(ng, 'tc');
  const huffing = (ng.querySelector('[name=huffing]') as HTMLInputElement).checked;
  const crownContinue = (ng.querySelector('[name=crownContinue]') as HTMLInputElement).checked;
  const side = val(ng, 'computer');
  const computer = side === 'white' || side === 'black' ? ({ side, level: Number(val(ng, 'level')) || 5 } as const) : null;
  // (The computer's side has its name in the record; a name typed for it is not used.)
  if (computer) delete tags[computer.side === 'white' ? 'White' : 'Black'];
  // Only the Opponent control chooses the computer: its old name is no player's name.
  for (const k of ['Black', 'White']) if (COMPUTER_NAME.test(tags[k] ?? '')) delete tags[k];
  const cmd: Command = {
    name: 'new-game',
    ...(Object.keys(tags).length ? { tags } : {}),
    timeControl: tc,
    rules: { huffing, crownContinue },
    computer,
  };
  if (from === 'fen') {
    const fen = val(ng, 'fen');
    if (!fen) {
      ($(`new-game-form`).querySelector('[name=fen]') as HTMLInputElement).focus();
      return null;
    }
    cmd.fen = fen;
  } else if (from === 'ballot') {
    // (The field's min/max stop a number out of range in the browser; the service checks again and names the problem.)
    const b = val(ng, 'ballot').trim();
    cmd.ballot = b === '' ? 'random' : Number(b);
    if ((ng.querySelector('[name=crossboardOnly]') as HTMLInputElement).checked) cmd.crossboardOnly = true;
  } else if (from === 'eleven') {
    const b = val(ng, 'eleven').trim();
    cmd.elevenMan = b === '' ? 'random' : Number(b);
  } else {
    const first = val(ng, 'first');
    if (first === 'white' || first === 'random') cmd.firstPlayer = first;
  }
  return cmd;
}

export function wireForms(deps: FormDeps): Forms {
  $('forms').innerHTML = renderForms();
  const ng = $<HTMLFormElement>('new-game-form');
  const names = $<HTMLFormElement>('names-form');
  const syncFrom = () => {
    ng.dataset.from = val(ng, 'from') || 'start';
    ng.dataset.tc = val(ng, 'tc') === 'custom' ? 'custom' : '';
    ng.dataset.computer = val(ng, 'computer');
  };
  syncFrom();
  ng.addEventListener('change', syncFrom);
  ng.addEventListener('submit', (e) => {
    e.preventDefault();
    // Over a game in progress the button asks first (a second click within a few seconds confirms).
    if (deps.gameInProgress() && !isArmed(deps.state(), 'new-game', Date.now())) {
      deps.dispatch({ type: 'arm', key: 'new-game', now: Date.now() });
      deps.render();
      return;
    }
    deps.dispatch({ type: 'disarm' });
    const cmd = newGameCommand(ng);
    if (!cmd) return;
    // The form closes when the server accepts the game; a refusal (bad FEN…) is shown beside the fields.
    deps.send(cmd);
  });
  names.addEventListener('submit', (e) => {
    e.preventDefault();
    deps.send({ name: 'set-tags', tags: { Black: val(names, 'Black'), White: val(names, 'White'), Event: val(names, 'Event') } });
    ($('names-card') as HTMLDetailsElement).open = false;
  });
  // A closed form follows the game, so it opens already filled. (Filling it on the card's toggle event
  // instead raced the hand: that event comes a task after the click, and undid a choice made at once.)
  let filledFor = '';
  return {
    sync() {
      const snap = deps.state().snap;
      if (!snap) return;
      const key = JSON.stringify([snap.gameId, snap.clock?.control ?? '', snap.computer, snap.options, snap.tags]);
      if (key === filledFor) return;
      filledFor = key;
      if (!($('new-game-card') as HTMLDetailsElement).open) {
        fillNewGame(deps, ng);
        fillNames(deps, ng);
        syncFrom();
      }
      if (!($('names-card') as HTMLDetailsElement).open) fillNames(deps, names);
    },
  };
}

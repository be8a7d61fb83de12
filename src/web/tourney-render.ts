// The arbiter's tournament panel as HTML, a function of its state
// (tourney-state.ts): with no tournament, the form that creates one (system,
// rounds, ballots, time control, tournament rules); with one, the next step
// (pair or start a round), the standings, the crosstable, every round's
// pairings with results (each game's earlier results kept beside it) and its
// PDN, the form that enters or corrects a result with a reason, the players
// with withdraw buttons and the late-entry form, and the links to the
// crosstable (CSV, HTML) and the broadcast. Tables scroll sideways in their
// own box, so the page fits a phone. Pure (no DOM).

import { esc } from './html.ts';
import { RESULT_WORDS } from './model.ts';
import { nextStep, roundGames, type GameRow, type TourneyData, type TourneyState } from './tourney-state.ts';

/** A link the arbiter opens: the control token from the page's own address goes along, as on the board links. */
export function withToken(path: string, token: string | null): string {
  return token ? `${path}${path.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}` : path;
}

const SYSTEM_WORDS: Record<string, string> = { 'round-robin': 'Round robin', swiss: 'Swiss', list: 'Pairing list' };

const resultText = (r: string): string => (r === '*' ? '—' : r === '1/2-1/2' ? '½-½' : r);
const resultTitle = (r: string): string => (r === '*' ? 'no result yet' : (RESULT_WORDS[r] ?? r));

function statusLine(s: TourneyState): string {
  const st = s.status;
  return `<p id="tt-status" class="cf-status${st ? (st.ok ? ' ok' : ' bad') : ''}" role="status">${st ? esc(st.text) : ''}</p>`;
}

function field(id: string, label: string, input: string): string {
  return `<div class="cf-row"><label for="${id}">${esc(label)}</label>${input}</div>`;
}

/** The form that creates a tournament (the API's settings; the id is made from the name when left empty). */
export function renderCreateForm(): string {
  const opt = (v: string, l: string, sel = false) => `<option value="${v}"${sel ? ' selected' : ''}>${esc(l)}</option>`;
  return (
    `<form id="tt-create" class="tt-form" novalidate>` +
    `<p class="club-note">No tournament yet: create one, then add the players.</p>` +
    field('tt-name', 'Name', '<input id="tt-name" name="name" maxlength="80" placeholder="Club night" autocomplete="off">') +
    field(
      'tt-system',
      'System',
      `<select id="tt-system" name="system">${opt('round-robin', 'Round robin', true)}${opt('swiss', 'Swiss')}${opt('list', 'Pairing list (CSV)')}</select>`,
    ) +
    field('tt-rounds', 'Rounds', '<input id="tt-rounds" name="rounds" inputmode="numeric" value="3" maxlength="2">') +
    field(
      'tt-ballots',
      'Openings',
      `<select id="tt-ballots" name="ballots">${opt('acf', 'ACF ballot pairs (two games a pairing)', true)}${opt('none', 'Go as you please (one game)')}</select>`,
    ) +
    field('tt-tc', 'Time control', '<input id="tt-tc" name="timeControl" placeholder="e.g. 5m+3s or 5m/move,1m/forced" maxlength="60">') +
    `<div class="cf-row"><label><input type="checkbox" id="tt-rules" name="tournamentRules" checked> Tournament rules: no hints, no evaluation, takebacks only by the arbiter</label></div>` +
    field('tt-seed', 'Seed', '<input id="tt-seed" name="seed" inputmode="numeric" value="1" maxlength="9">') +
    `<div class="cf-actions"><button type="submit" class="btn" id="tt-create-go">Create tournament</button></div>` +
    `</form>`
  );
}

function nextStepHtml(d: TourneyData): string {
  const step = nextStep(d);
  const button =
    step.kind === 'pair'
      ? `<button type="button" class="btn" id="tt-pair" data-tt-act="pair">Pair round ${step.round}</button>`
      : step.kind === 'start'
        ? `<button type="button" class="btn" id="tt-start" data-tt-act="start-round">Start round ${step.round}</button>`
        : '';
  const why = step.why ? `<span class="club-note" id="tt-why">${esc(step.why.charAt(0).toUpperCase() + step.why.slice(1))}.</span>` : '';
  return `<div class="tt-actions">${button}${why}</div>`;
}

function links(d: TourneyData, token: string | null): string {
  const a = (href: string, label: string, id: string) =>
    `<a class="btn small" id="${id}" href="${esc(withToken(href, token))}">${esc(label)}</a>`;
  return (
    `<div class="tt-links">${a('/api/tournament/crosstable.csv', 'Crosstable (CSV)', 'tt-csv')}` +
    `${a('/api/tournament/crosstable.html', 'Crosstable (page)', 'tt-html')}` +
    `${d.round ? a('/broadcast.pdn', 'Broadcast (PDN)', 'tt-broadcast') : ''}</div>`
  );
}

function standingsHtml(d: TourneyData): string {
  const tb = d.standings[0]?.tieBreaks.map((t) => t.name) ?? [];
  const head = ['Rank', 'Name', 'Points', 'Played', 'Won', 'Drawn', 'Lost', ...tb].map((h) => `<th scope="col">${esc(h)}</th>`).join('');
  const rows = d.standings
    .map(
      (r) =>
        `<tr data-seed="${r.seed}"><td>${r.rank}</td><th scope="row">${esc(r.name)}${r.withdrawn ? ' <small>(withdrawn)</small>' : ''}</th>` +
        `<td data-points>${esc(points(r.points))}</td><td>${r.played}</td><td>${r.won}</td><td>${r.drawn}</td><td>${r.lost}</td>` +
        r.tieBreaks.map((t) => `<td>${esc(points(t.value))}</td>`).join('') +
        `</tr>`,
    )
    .join('');
  return `<h3>Standings</h3><div class="tt-scroll"><table class="tt-table" id="tt-standings"><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table></div>`;
}

const points = (n: number): string =>
  Number.isInteger(n) ? String(n) : Number.isInteger(n * 2) ? `${Math.floor(n) || ''}½` : n.toFixed(2);

function crosstableHtml(d: TourneyData): string {
  const c = d.crosstable;
  const nameAt = c.head.indexOf('Name');
  const head = c.head.map((h) => `<th scope="col">${esc(h)}</th>`).join('');
  const rows = c.rows
    .map((row) => `<tr>${row.map((v, i) => (i === nameAt ? `<th scope="row">${esc(v)}</th>` : `<td>${esc(v)}</td>`)).join('')}</tr>`)
    .join('');
  return `<h3>Crosstable</h3><div class="tt-scroll"><table class="tt-table" id="tt-crosstable"><caption class="sr-only">${esc(c.caption)}</caption><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table></div>`;
}

function gameRow(g: GameRow, ballots: boolean): string {
  const earlier = g.history.slice(0, -1);
  const was = earlier.length
    ? `<small class="tt-was">was ${earlier.map((h) => esc(resultText(h.result))).join(', ')}${g.history.at(-1)?.reason ? ` — ${esc(g.history.at(-1)!.reason!)}` : ''}</small>`
    : '';
  return (
    `<tr data-game="${g.key}"><td>${g.board}${ballots ? `.${g.game}` : ''}</td><td>${esc(g.black)}</td><td>${esc(g.white)}</td>` +
    `<td data-result="${esc(g.result)}" title="${esc(resultTitle(g.result))}">${esc(resultText(g.result))}${g.started && g.result === '*' ? ' <small>playing</small>' : ''}${was}</td>` +
    `<td><button type="button" class="btn small" data-tt-choose="${g.key}">Result…<span class="sr-only"> board ${g.board}${ballots ? ` game ${g.game}` : ''}, round ${g.round}</span></button></td></tr>`
  );
}

function roundsHtml(d: TourneyData, token: string | null): string {
  const ballots = d.tournament.ballots === 'acf';
  const nameOf = (seed: number) => d.tournament.players[seed - 1]?.name ?? `player ${seed}`;
  return [...d.tournament.played]
    .reverse()
    .map((r) => {
      const bye = r.bye !== null ? `<p class="club-note" data-bye="${r.bye}">Bye: ${esc(nameOf(r.bye))}</p>` : '';
      const rows = roundGames(d, r)
        .map((g) => gameRow(g, ballots))
        .join('');
      return (
        `<section class="tt-round" data-round="${r.round}" aria-labelledby="tt-round-${r.round}">` +
        `<h4 id="tt-round-${r.round}">Round ${r.round} <a class="btn small" href="${esc(withToken(`/broadcast/${r.round}.pdn`, token))}" data-round-pdn="${r.round}">PDN<span class="sr-only"> of round ${r.round}</span></a></h4>${bye}` +
        `<div class="tt-scroll"><table class="tt-table"><thead><tr><th scope="col">Board</th><th scope="col">Black</th><th scope="col">White</th><th scope="col">Result</th><th scope="col"><span class="sr-only">Change</span></th></tr></thead><tbody>${rows}</tbody></table></div></section>`
      );
    })
    .join('');
}

function resultForm(d: TourneyData, chosen: string | null): string {
  const games = d.tournament.played.flatMap((r) => roundGames(d, r));
  if (!games.length) return '';
  const pick = chosen ?? games.find((g) => g.result === '*')?.key ?? games.at(-1)!.key;
  const options = games
    .map(
      (g) =>
        `<option value="${g.key}"${g.key === pick ? ' selected' : ''}>Round ${g.round}, board ${g.board}${d.tournament.ballots === 'acf' ? ` game ${g.game}` : ''}: ${esc(g.black)} – ${esc(g.white)} (${esc(resultText(g.result))})</option>`,
    )
    .join('');
  const opt = (v: string, l: string) => `<option value="${esc(v)}">${esc(l)}</option>`;
  return (
    `<form id="tt-result" class="tt-form" novalidate><h3 id="tt-result-title">Enter or correct a result</h3>` +
    field('tt-game', 'Game', `<select id="tt-game" name="game">${options}</select>`) +
    field(
      'tt-res',
      'Result',
      `<select id="tt-res" name="result">${opt('1-0', '1-0 (Black wins)')}${opt('0-1', '0-1 (White wins)')}${opt('1/2-1/2', '½-½ (draw)')}${opt('*', '* (no result: clear it)')}</select>`,
    ) +
    field(
      'tt-reason',
      'Why',
      '<input id="tt-reason" name="reason" maxlength="200" placeholder="e.g. White lost on time; the board missed it">',
    ) +
    field('tt-by', 'Arbiter', '<input id="tt-by" name="by" maxlength="60" placeholder="arbiter" autocomplete="name">') +
    `<p class="club-note">The game’s PDN, the broadcast and the standings change together; the earlier result is kept.</p>` +
    `<div class="cf-actions"><button type="submit" class="btn" id="tt-result-go">Set result</button></div></form>`
  );
}

function playersHtml(d: TourneyData): string {
  const items = d.tournament.players
    .map(
      (p) =>
        `<li data-player="${p.seed}"><span>${p.seed}. ${esc(p.name)}${p.rating !== null ? ` <small>${p.rating}</small>` : ''}${p.withdrawn ? ' <small>(withdrawn)</small>' : ''}</span>` +
        (p.withdrawn
          ? ''
          : `<button type="button" class="btn small" data-tt-withdraw="${p.seed}">Withdraw<span class="sr-only"> ${esc(p.name)}</span></button>`) +
        `</li>`,
    )
    .join('');
  const late = d.tournament.played.length > 0 ? 'Late entry' : 'Add a player';
  return (
    `<h3>Players</h3><ul class="tt-players">${items || '<li>No players yet.</li>'}</ul>` +
    `<form id="tt-player" class="tt-form tt-inline" novalidate>` +
    field('tt-pname', late, '<input id="tt-pname" name="name" maxlength="80" autocomplete="off" placeholder="Name">') +
    field('tt-prating', 'Rating', '<input id="tt-prating" name="rating" inputmode="numeric" maxlength="4" placeholder="optional">') +
    `<div class="cf-actions"><button type="submit" class="btn" id="tt-player-go">Add player</button></div></form>`
  );
}

/** The whole panel. */
export function renderTourney(s: TourneyState, token: string | null): string {
  if (s.data === null) return `<h2 id="tourney-title">Tournament</h2><p class="club-note">Loading the tournament…</p>${statusLine(s)}`;
  if (s.data === 'none') return `<h2 id="tourney-title">Tournament</h2>${renderCreateForm()}${statusLine(s)}`;
  const d = s.data;
  const t = d.tournament;
  const what = [
    SYSTEM_WORDS[t.system] ?? t.system,
    `${t.rounds} round${t.rounds === 1 ? '' : 's'}`,
    t.ballots === 'acf' ? 'ACF ballot pairs' : 'go as you please',
    t.timeControl ? `clock ${t.timeControl}` : 'the service’s clock',
    t.tournamentRules === false ? 'casual rules' : 'tournament rules',
  ].join(' · ');
  return (
    `<h2 id="tourney-title">Tournament: ${esc(t.name)}</h2><p class="club-note" id="tt-what">${esc(what)}${d.round ? ` · round ${d.round}` : ''}</p>` +
    statusLine(s) +
    nextStepHtml(d) +
    links(d, token) +
    standingsHtml(d) +
    roundsHtml(d, token) +
    resultForm(d, s.chosen) +
    playersHtml(d) +
    crosstableHtml(d)
  );
}

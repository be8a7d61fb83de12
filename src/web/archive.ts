// The archive panel as HTML: saved games, sortable, to open (replay),
// download or delete (with control, confirmed), and the trash: deleted games
// kept for a while, to restore. Pure, like render.ts.

import { at } from './base.ts';
import { canControl, isArmed, sortedArchive, type ViewState } from './state.ts';
import { button, esc } from './html.ts';

/** When a saved game was last played, in local time ("2026-11-25 21:48"); the PDN date if the time is unknown. */
export function archiveDate(modified: number, pdnDate: string): string {
  if (!(modified > 0)) return pdnDate || '?';
  const d = new Date(modified);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** The archive: saved games, sortable, to open (replay), download or delete (with control, confirmed). */
export function renderArchive(s: ViewState, now: number): string {
  const a = s.archive;
  if (!a.open) return '';
  const control = canControl(s);
  const head = (by: typeof a.sort, label: string) =>
    `<th scope="col" aria-sort="${a.sort === by ? (a.descending ? 'descending' : 'ascending') : 'none'}"><button type="button" class="sort" data-act="archive-sort" data-by="${by}">${label}${a.sort === by ? (a.descending ? ' ▾' : ' ▴') : ''}</button></th>`;
  let body: string;
  if (a.error) body = `<p class="form-error">${esc(a.error)}</p>`;
  else if (!a.entries) body = '<p class="note">Loading…</p>';
  else if (!a.entries.length) body = '<p class="note">No saved games yet.</p>';
  else {
    const rows = sortedArchive(a)
      .map((g) => {
        const del =
          control && !g.current
            ? button(
                'archive-delete',
                isArmed(s, `delete-${g.id}`, now) ? 'Confirm delete' : 'Delete',
                { id: g.id },
                `small danger${isArmed(s, `delete-${g.id}`, now) ? ' armed' : ''}`,
              ).replace(/id="b-archive-delete"/, `id="del-${esc(g.id)}"`)
            : '';
        return (
          `<tr data-game="${esc(g.id)}"${g.current ? ' class="current"' : ''}><td data-date="${g.modified}">${esc(archiveDate(g.modified, g.date))}</td><td>${esc(g.black || '?')} – ${esc(g.white || '?')}</td><td>${esc(g.event || '')}</td><td>${esc(g.result)}</td><td class="num" data-plies="${g.plies ?? ''}">${g.plies === null ? '?' : Math.ceil(g.plies / 2)}</td>` +
          `<td class="acts">${button('archive-view', g.current ? 'Review' : 'Open', { id: g.id }, 'small').replace(/id="b-archive-view"/, `id="open-${esc(g.id)}"`)}<a class="btn small" href="${at(`/api/games/${encodeURIComponent(g.id)}.pdn`)}" download="${esc(g.id)}.pdn">PDN</a>${del}</td></tr>`
        );
      })
      .join('');
    body = `<div class="archive-scroll"><table class="archive-table"><thead><tr>${head('date', 'Date')}${head('players', 'Players')}${head('event', 'Event')}${head('result', 'Result')}${head('length', 'Moves')}<th scope="col"><span class="sr-only">Actions</span></th></tr></thead><tbody>${rows}</tbody></table></div>`;
  }
  return (
    `<div class="archive-panel card" role="dialog" aria-modal="true" aria-labelledby="archive-title">` +
    `<div class="archive-head"><h2 id="archive-title">Past games</h2><a class="btn small" id="dl-archive" href="${at('/api/archive.pdn')}" download="crownhead-archive.pdn">Download all (PDN)</a>${button('archive-close', 'Close', {}, 'small')}</div>` +
    body +
    renderTrash(s, control) +
    `</div>`
  );
}

/** Deleted games waiting in the trash, newest deletion first, each with Restore (with control). */
export function renderTrash(s: ViewState, control: boolean): string {
  const t = s.archive.trash;
  if (!t || !t.games.length) return '';
  const rows = t.games
    .map(
      (g) =>
        `<li data-trashed="${esc(g.id)}"><span>${esc(g.black || '?')} – ${esc(g.white || '?')}${g.event ? `, ${esc(g.event)}` : ''} (${esc(g.result)}), deleted ${esc(archiveDate(g.deleted, ''))}</span>` +
        (control
          ? button('archive-restore', 'Restore', { id: g.id }, 'small').replace(/id="b-archive-restore"/, `id="restore-${esc(g.id)}"`)
          : '') +
        `</li>`,
    )
    .join('');
  return `<section class="trash" id="trash" aria-labelledby="trash-title"><h3 id="trash-title">Deleted games <span class="note">kept ${t.days} days, then emptied</span></h3><ul class="trash-list">${rows}</ul></section>`;
}

// The board page's endgame-database card, as a function of the service's
// answer (GET /api/egdb, src/engine-host/egdb-build.ts): what the engine
// knows of the endgame now, and the 5-piece database to build (with what it
// costs), its progress while it builds (slice k of n, time left), or why the
// last build did not end. Pure: egdb-main.ts fetches and draws it.

import { esc } from './html.ts';
import type { EgdbStatus } from '../protocol/v1.ts';

export type { EgdbStatus };

const STATES = new Set(['absent', 'building', 'built', 'damaged', 'failed', 'stopped']);

/** The answer checked by hand (this small script stays without zod beside app.js); null when it is not one. */
export function readEgdbView(json: unknown): EgdbStatus | null {
  if (typeof json !== 'object' || json === null) return null;
  const j = json as Record<string, unknown>;
  const num = (k: string) => typeof j[k] === 'number' && Number.isFinite(j[k]);
  if (
    !STATES.has(j.state as string) ||
    !num('done') ||
    !num('total') ||
    !num('elapsedMs') ||
    !num('bytes') ||
    typeof j.message !== 'string'
  )
    return null;
  return j as unknown as EgdbStatus; // every field of EgdbStatus checked just above
}

/** "about 7 min left" from the slices done so far (slices differ in size: a rough figure), or '' before the first. */
export function timeLeft(v: Pick<EgdbStatus, 'done' | 'total' | 'elapsedMs'>): string {
  if (v.done < 1 || v.total <= v.done) return '';
  const ms = (v.elapsedMs / v.done) * (v.total - v.done);
  const min = Math.round(ms / 60_000);
  return min < 1 ? 'under a minute left' : `about ${min} min left`;
}

const COST =
  'about 13 minutes on a two-core computer, 136 MB on disk and 2.4 GB of memory while it builds; the board goes on as usual meanwhile';

export function egdbView(v: EgdbStatus, error = ''): string {
  const title = '<h2 class="card-title">Endgame database</h2>';
  const problem = error ? `<p class="egdb-error" role="alert">${esc(error)}</p>` : '';
  if (v.state === 'built') return `${title}<p data-egdb="built">${esc(v.message)}</p>`;
  if (v.state === 'building') {
    const left = timeLeft(v);
    const bar = v.total
      ? `<progress value="${v.done}" max="${v.total}" aria-label="Slices solved">${v.done} of ${v.total}</progress>`
      : '<progress aria-label="Starting"></progress>';
    return `${title}<p data-egdb="building" aria-live="polite">${esc(v.message)}${left ? ` ${esc(left)}.` : ''}</p>${bar}
<button type="button" data-act="egdb-stop">Stop (it goes on from here later)</button>${problem}`;
  }
  const what =
    v.state === 'absent'
      ? '<p class="hint">The engine knows the exact result of every position with 4 pieces or fewer. The 5-piece database adds every position with 5: the computer and the coach play those endings perfectly.</p>'
      : `<p data-egdb="${v.state}">${esc(v.message)}</p>`;
  return `${title}${what}<p class="hint">Building it takes ${COST}.</p>
<button type="button" data-act="egdb-build">${v.state === 'absent' ? 'Build the 5-piece database' : 'Build it again'}</button>${problem}`;
}

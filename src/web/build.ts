// Builds the page in memory at service start: esbuild bundles src/web/main.ts
// (and the CSS it imports), minified, no source map; the HTML shell is
// written here, with the tiny boot.ts inline in its head (it opens the socket
// while main.ts loads; page.ts allows it by its hash in the page's CSP). The club pages (/watch, /arbiter) are a second bundle from
// src/web/club-main.ts with their own two shells; the friend's seat page
// (/play/<token>) a third, from src/web/play-main.ts; the board page's two
// small cards (a friend online, the endgame database) have scripts of their
// own (friend-main.ts, egdb-main.ts). The result is a map from
// URL path to body and content type that the HTTP server serves as it is
// (no build step, no files on disk).

import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export interface PageAsset {
  body: Buffer;
  type: string;
}

const HERE = dirname(fileURLToPath(import.meta.url));

const CROWN_SVG =
  '<svg viewBox="0 0 32 32" aria-hidden="true"><circle cx="16" cy="19" r="11" fill="#1c1c20" stroke="#5d5d66" stroke-width="2"/><path d="M8.5 22 7 11l5.5 4.5L16 8l3.5 7.5L25 11l-1.5 11z" fill="#f2c14e"/></svg>';
const FAVICON = 'data:image/svg+xml,' + encodeURIComponent(CROWN_SVG.replace(' aria-hidden="true"', ' xmlns="http://www.w3.org/2000/svg"'));

/** Both pages' document head: the title and description, the icon, an inline script (before the stylesheet: a script after one would wait for it to load), the stylesheet. */
function head(title: string, description: string, css: string, script = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="theme-color" content="#13171b">
<meta name="description" content="${description}">
<title>${title}</title>
<link rel="icon" href="${FAVICON}">
${script ? `<script>${script}</script>\n` : ''}<link rel="stylesheet" href="${css}">
</head>
`;
}

function indexHtml(js: string, css: string, boot: string, friendJs: string, egdbJs: string): string {
  return `${head('Crownhead', 'Crownhead: live board, moves and alerts for a game of checkers on a real board', css, boot)}<body data-status="setup">
<header class="top">
<h1 class="brand">${CROWN_SVG}Crownhead</h1>
<div id="conn" aria-live="polite"></div>
<div id="toggles" role="toolbar" aria-label="Display"></div>
</header>
<div id="banner"></div>
<main class="layout">
<section class="board-col" aria-label="Board"><div class="board-wrap"><div id="evalbar"></div><div id="board"></div></div><div id="review"></div><div id="hand"></div></section>
<section id="status" aria-label="Board state"></section>
<section id="players" aria-label="Players"></section>
<section id="moves-card" aria-label="Moves"><div id="moves"></div></section>
<section id="controls" aria-label="Game controls"><div id="game" class="card"></div><div id="forms" hidden></div><div id="log"></div><div id="friend" class="card" aria-label="Play a friend online" hidden></div><div id="egdb" class="card" aria-label="Endgame database" hidden></div></section>
</main>
<div id="live-polite" class="sr-only" aria-live="polite"></div>
<div id="live-assertive" class="sr-only" aria-live="assertive" role="alert"></div>
<div id="archive" hidden></div>
<div id="sensors" hidden></div>
<noscript><p style="padding:20px">Crownhead needs JavaScript to show the live board.</p></noscript>
<script type="module" src="${js}"></script>
<script type="module" src="${friendJs}"></script>
<script type="module" src="${egdbJs}"></script>
</body>
</html>
`;
}

/** The club pages' shell: /watch (spectators, no token, no controls) or /arbiter (the same grid with the arbiter's list and tools). */
function clubHtml(mode: 'watch' | 'arbiter', js: string, css: string): string {
  const title = mode === 'arbiter' ? 'Arbiter' : 'Live boards';
  const description = `Crownhead: ${mode === 'arbiter' ? 'the arbiter’s view of every board' : 'every board of the room, live'}`;
  return `${head(`Crownhead · ${title}`, description, css)}<body data-mode="${mode}">
<header class="top">
<h1 class="brand">${CROWN_SVG}Crownhead <span class="what">${title}</span></h1>
<div id="club-conn"></div>
</header>
<main class="club">
<div id="club-problem"></div>
${mode === 'arbiter' ? '<section id="club-alerts" aria-labelledby="alerts-title"></section>\n<section id="club-correct" class="club-correct" aria-labelledby="correct-title" hidden></section>\n' : ''}${mode === 'arbiter' ? '<section id="club-stations" class="club-stations" aria-labelledby="stations-title" hidden></section>\n<section id="club-tourney" class="club-tourney" aria-labelledby="tourney-title"></section>\n' : ''}<div id="club-boards"></div>
</main>
<div id="club-live" class="sr-only" aria-live="polite"></div>
<noscript><p style="padding:20px">Crownhead needs JavaScript to show the live boards.</p></noscript>
<script type="module" src="${js}"></script>
</body>
</html>
`;
}

/** The friend's seat page's shell (served for /play/<token> by src/server/seat-routes.ts): the board, the clocks, the buttons, all drawn by play-main.ts. */
function playHtml(js: string, css: string): string {
  return `${head('Crownhead · Play', 'Crownhead: play a game against a player at a real board', css)}<body data-mode="play">
<main id="play" aria-label="Your game"></main>
<noscript><p style="padding:20px">Crownhead needs JavaScript to show the game.</p></noscript>
<script type="module" src="${js}"></script>
</body>
</html>
`;
}

/** The friend's seat page's paths in the page map (not the board's page: pageSize leaves them out). */
export const PLAY_PATHS = ['/play', '/assets/play.js', '/assets/play.css'] as const;

/** The club pages' paths in the page map (served by src/server/club-pages.ts and page.ts). */
export const CLUB_PATHS = ['/watch', '/arbiter', '/assets/club.js', '/assets/club.css'] as const;

const hash = (b: Buffer): string => createHash('sha256').update(b).digest('hex').slice(0, 10);

/**
 * Bundles the page and the club pages; entries keyed by URL path: '/'
 * (with boot.ts inline), '/assets/app.js', '/assets/app.css', and '/watch', '/arbiter',
 * '/assets/club.js', '/assets/club.css'.
 */
export async function buildPage(): Promise<Map<string, PageAsset>> {
  const result = await build({
    entryPoints: {
      app: join(HERE, 'main.ts'),
      club: join(HERE, 'club-main.ts'),
      play: join(HERE, 'play-main.ts'),
      friend: join(HERE, 'friend-main.ts'),
      egdb: join(HERE, 'egdb-main.ts'),
    },
    bundle: true,
    write: false,
    minify: true,
    sourcemap: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    outdir: '/assets',
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'silent',
  });
  // boot.ts as a classic script (it runs as the HTML is read, in its own scope).
  const boot = await build({
    entryPoints: [join(HERE, 'boot.ts')],
    bundle: true,
    write: false,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'silent',
  });
  const bootJs = boot.outputFiles[0].text.trim();
  const out = new Map<string, PageAsset>();
  // The versioned address of each output by name: 'app.js' → '/assets/app.js?v=…'.
  const linked = new Map<string, string>();
  for (const f of result.outputFiles) {
    const body = Buffer.from(f.contents);
    const name = f.path.replace(/\\/g, '/').replace(/^.*\/assets\//, '');
    const type = name.endsWith('.js') ? 'text/javascript; charset=utf-8' : name.endsWith('.css') ? 'text/css; charset=utf-8' : null;
    if (!type) continue;
    out.set(`/assets/${name}`, { body, type });
    linked.set(name, `/assets/${name}?v=${hash(body)}`);
  }
  const link = (name: string): string => {
    const url = linked.get(name);
    if (!url) throw new Error(`page build produced no ${name}`);
    return url;
  };
  out.set('/', {
    body: Buffer.from(indexHtml(link('app.js'), link('app.css'), bootJs, link('friend.js'), link('egdb.js'))),
    type: 'text/html; charset=utf-8',
  });
  out.set('/play', { body: Buffer.from(playHtml(link('play.js'), link('play.css'))), type: 'text/html; charset=utf-8' });
  for (const mode of ['watch', 'arbiter'] as const)
    out.set(`/${mode}`, { body: Buffer.from(clubHtml(mode, link('club.js'), link('club.css'))), type: 'text/html; charset=utf-8' });
  return out;
}

/** Total size of the one-board page (HTML + JS + CSS), or with `club` of a club page (one shell + its JS + CSS), raw and gzipped. */
export async function pageSize(page?: Map<string, PageAsset>, which: 'board' | 'club' = 'board'): Promise<{ raw: number; gzip: number }> {
  const entries = page ?? (await buildPage());
  const club = new Set<string>(CLUB_PATHS);
  const play = new Set<string>(PLAY_PATHS);
  let raw = 0,
    gzip = 0;
  for (const [path, { body }] of entries) {
    if (play.has(path)) continue;
    if (which === 'board' ? club.has(path) : !club.has(path) || path === '/arbiter') continue;
    raw += body.length;
    gzip += gzipSync(body, { level: 9 }).length;
  }
  return { raw, gzip };
}

// Builds the page in memory at service start: esbuild bundles src/web/main.ts
// (and the CSS it imports), minified, no source map; the HTML shell is
// written here. The result is a map from URL path to body and content type
// that the HTTP server serves as it is (no build step, no files on disk).

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

function indexHtml(js: string, css: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="theme-color" content="#13171b">
<meta name="description" content="Crownhead: live board, moves and alerts for a game of checkers on a real board">
<title>Crownhead</title>
<link rel="icon" href="${FAVICON}">
<link rel="stylesheet" href="${css}">
</head>
<body data-status="setup">
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
<section id="controls" aria-label="Game controls"><div id="game" class="card"></div><div id="forms" hidden></div><div id="log"></div></section>
</main>
<div id="live-polite" class="sr-only" aria-live="polite"></div>
<div id="live-assertive" class="sr-only" aria-live="assertive" role="alert"></div>
<noscript><p style="padding:20px">Crownhead needs JavaScript to show the live board.</p></noscript>
<script type="module" src="${js}"></script>
</body>
</html>
`;
}

const hash = (b: Buffer): string => createHash('sha256').update(b).digest('hex').slice(0, 10);

/** Bundles the page; entries keyed by URL path: '/', '/assets/app.js', '/assets/app.css'. */
export async function buildPage(): Promise<Map<string, PageAsset>> {
  const result = await build({
    entryPoints: { app: join(HERE, 'main.ts') },
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
  const out = new Map<string, PageAsset>();
  let js = '',
    css = '';
  for (const f of result.outputFiles) {
    const body = Buffer.from(f.contents);
    const name = f.path.replace(/\\/g, '/').replace(/^.*\/assets\//, '/assets/');
    if (name.endsWith('.js')) {
      out.set('/assets/app.js', { body, type: 'text/javascript; charset=utf-8' });
      js = `/assets/app.js?v=${hash(body)}`;
    } else if (name.endsWith('.css')) {
      out.set('/assets/app.css', { body, type: 'text/css; charset=utf-8' });
      css = `/assets/app.css?v=${hash(body)}`;
    }
  }
  if (!js || !css) throw new Error('page build produced no script or no stylesheet');
  out.set('/', { body: Buffer.from(indexHtml(js, css)), type: 'text/html; charset=utf-8' });
  return out;
}

/** Total size of the page (HTML + JS + CSS), raw and gzipped. */
export async function pageSize(page?: Map<string, PageAsset>): Promise<{ raw: number; gzip: number }> {
  const entries = page ?? (await buildPage());
  let raw = 0,
    gzip = 0;
  for (const { body } of entries.values()) {
    raw += body.length;
    gzip += gzipSync(body, { level: 9 }).length;
  }
  return { raw, gzip };
}

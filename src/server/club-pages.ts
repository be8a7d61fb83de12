// The club pages' routes: GET /watch, the spectators' page (read-only: the
// page carries on only the token of its own address, the watch token a
// spectator on another device is given — /watch?token=CONTROL is sent on to
// /watch?token=WATCH, so no spectators' page holds the control token), and GET /arbiter, the
// arbiter's grid, served only to a requester with control rights (the control
// token in ?token=, a Bearer header or the page's cookie; this machine's own
// pages unless the service requires a token). Without rights /arbiter answers
// 403 with a page that says so and what to do. Both come from the prebuilt
// page map (src/web/build.ts), sent like every other page file (page.ts).

import type express from 'express';
import { requesterOf, type Access } from './access.ts';
import { sendAsset, type Page } from './page.ts';

const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page the arbiter's address answers without control rights: why, and where to go instead. */
export function arbiterRefusalHtml(reason: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Crownhead · Arbiter: no access</title>
<style>body{background:#13171b;color:#ece7dc;font:16px/1.5 system-ui,sans-serif;margin:0;padding:24px;max-width:40em}h1{font-size:22px}a{color:#f2c14e}code{background:#242b31;padding:1px 5px;border-radius:4px}</style>
</head>
<body data-mode="arbiter" data-access="refused">
<main>
<h1>The arbiter’s page needs the control token</h1>
<p role="alert">${esc(reason.charAt(0).toUpperCase() + reason.slice(1))}.</p>
<p>Open it as <code>/arbiter?token=…</code> with the control token printed when the service started.</p>
<p>To follow the games without controls, open <a href="/watch">the spectators’ page</a>.</p>
</main>
</body>
</html>
`;
}

/** GET/HEAD /watch and /arbiter (with or without a trailing slash), before the page's other files. */
export function clubPageRoutes(app: express.Express, page: Page, access: Access): void {
  app.get(['/watch', '/watch/', '/arbiter', '/arbiter/'], (req, res, next) => {
    const mode = req.path.startsWith('/arbiter') ? 'arbiter' : 'watch';
    const token = req.query.token;
    if (mode === 'watch' && typeof token === 'string' && access.readToken && access.tokenMatches(token)) {
      res.setHeader('Cache-Control', 'no-store');
      return void res.redirect(302, `/watch?token=${encodeURIComponent(access.readToken)}`);
    }
    if (mode === 'arbiter') {
      const who = requesterOf(req);
      if (!access.canControl(who)) {
        res.status(403).setHeader('Cache-Control', 'no-store');
        res.type('html').send(arbiterRefusalHtml(access.refusal(who)));
        return;
      }
    }
    if (!page.ok) {
      res.status(503).type('text/plain').send(`Crownhead: ${page.message}.\nThe boards' API still works: /api/boards, /watch/ws.\n`);
      return;
    }
    const asset = page.assets.get(`/${mode}`);
    if (!asset) return next();
    // The arbiter's page is personal (its address may carry the token), as is a page opened with one: never kept by a shared cache.
    sendAsset(req, res, asset, mode === 'arbiter' || token !== undefined ? 'no-store' : undefined);
  });
}

// The club pages' build (src/web/build.ts, second entry): /watch and /arbiter
// shells linking the club bundle by its hash, with their regions and live
// region, nothing from the network, no token anywhere, and the bundle small
// beside the one-board page (its gzip size is the page weight reported).

import { describe, expect, it } from 'vitest';
import { buildPage, pageSize } from '../../src/web/build.ts';

describe('the club pages build', () => {
  it('writes /watch and /arbiter, each linking the club script and stylesheet', async () => {
    const page = await buildPage();
    const js = page.get('/assets/club.js')!.body.toString('utf8');
    const css = page.get('/assets/club.css')!.body.toString('utf8');
    for (const mode of ['watch', 'arbiter'] as const) {
      const html = page.get(`/${mode}`)!.body.toString('utf8');
      expect(page.get(`/${mode}`)!.type).toBe('text/html; charset=utf-8');
      expect(html).toContain(`<body data-mode="${mode}">`);
      expect(html).toMatch(/<script type="module" src="\/assets\/club\.js\?v=[0-9a-f]{10}"><\/script>/);
      expect(html).toMatch(/<link rel="stylesheet" href="\/assets\/club\.css\?v=[0-9a-f]{10}">/);
      for (const id of ['club-conn', 'club-problem', 'club-boards']) expect(html).toContain(`id="${id}"`);
      expect(html).toContain('id="club-live" class="sr-only" aria-live="polite"');
      expect(html.includes('id="club-alerts"')).toBe(mode === 'arbiter');
      expect(html).not.toMatch(/token/i);
      for (const text of [html, js, css]) expect(text).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    }
    expect(js).toContain('/watch/ws');
    expect(css).toContain('.club-card');
  });

  it('is small: well under the one-board page', async () => {
    const page = await buildPage();
    const club = await pageSize(page, 'club');
    const board = await pageSize(page);
    expect(club.gzip).toBeLessThan(30 * 1024);
    expect(club.gzip).toBeLessThan(board.gzip);
    console.log(`club page (/watch + club.js + club.css): ${club.raw} bytes, ${club.gzip} gzipped; one-board page ${board.gzip} gzipped`);
  });
});

// The page build: esbuild bundles the page in memory; the HTML shell links
// the script and stylesheet the map serves; everything is self-contained
// (no external URLs) and under 100 KB gzipped.

import { describe, expect, it } from 'vitest';
import { buildPage, pageSize } from '../../src/web/build.ts';

describe('buildPage', () => {
  it('builds index.html, app.js and app.css, linked together', async () => {
    const page = await buildPage();
    // The club pages (/watch, /arbiter and their bundle) are checked in club-build.test.ts; the friend's seat page (/play) in test/web/play-page.test.ts.
    expect([...page.keys()].sort()).toEqual([
      '/',
      '/arbiter',
      '/assets/app.css',
      '/assets/app.js',
      '/assets/club.css',
      '/assets/club.js',
      '/assets/egdb.js',
      '/assets/friend.js',
      '/assets/play.css',
      '/assets/play.js',
      '/play',
      '/watch',
    ]);
    expect(page.get('/')!.type).toBe('text/html; charset=utf-8');
    expect(page.get('/assets/app.js')!.type).toBe('text/javascript; charset=utf-8');
    expect(page.get('/assets/app.css')!.type).toBe('text/css; charset=utf-8');
    const html = page.get('/')!.body.toString('utf8');
    const js = page.get('/assets/app.js')!.body.toString('utf8');
    const css = page.get('/assets/app.css')!.body.toString('utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toMatch(/<script type="module" src="\/assets\/app\.js\?v=[0-9a-f]{10}"><\/script>/);
    expect(html).toMatch(/<link rel="stylesheet" href="\/assets\/app\.css\?v=[0-9a-f]{10}">/);
    // boot.ts inline in the head, before the stylesheet (a script after one waits for it): it opens the socket.
    const boot = /<script>([\s\S]*?)<\/script>\n<link rel="stylesheet"/.exec(html)?.[1] ?? '';
    expect(boot).toContain('new WebSocket(');
    expect(boot.length).toBeLessThan(1500);
    expect(html.indexOf('<script>')).toBeLessThan(html.indexOf('</head>'));
    expect(html).toContain('<meta name="viewport"');
    // The containers the script renders into, and the two live regions.
    for (const id of [
      'board',
      'hand',
      'status',
      'players',
      'moves',
      'game',
      'forms',
      'banner',
      'conn',
      'toggles',
      'log',
      'archive',
      'sensors',
    ])
      expect(html).toContain(`id="${id}"`);
    expect(html).toContain('id="live-polite" class="sr-only" aria-live="polite"');
    expect(html).toContain('id="live-assertive" class="sr-only" aria-live="assertive"');
    // Minified, no source map, no Node leftovers, nothing from the network.
    expect(js).not.toContain('sourceMappingURL');
    expect(js.length / js.split('\n').length).toBeGreaterThan(1000);
    expect(js).not.toMatch(/\bprocess\.env\b|require\(/);
    for (const text of [html, js, css]) expect(text).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    expect(css).toContain('.board-svg');
  });

  it('is small: under 100 KB gzipped', async () => {
    const { raw, gzip } = await pageSize();
    expect(raw).toBeGreaterThan(10_000);
    expect(gzip).toBeLessThan(100 * 1024);
    expect(gzip).toBeLessThan(raw);
  });
});

// Playing a friend who has no board, in real Chromium:
// the board's player starts it from the board's page ("Play a friend online":
// the link and its QR code), the friend opens the link on a phone-sized page
// (390×844) and plays White against the simulated board — picking pieces
// and landings by click and by drag, with the legal landings shown — while
// the sim's hands carry out each of their moves on the board; the board's
// player asks a takeback and the friend agrees; the friend resigns, downloads
// the PDN (equal, byte for byte, to the board's), and asks for the rematch,
// which swaps the colours (their board turns round).

import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './chromium.ts';
import { startService, type Service } from '../../src/server/service.ts';
import { SimBoard } from '../../src/sensors/sim/board.ts';
import { buildPage } from '../../src/web/build.ts';
import { legalMoves, type Move } from '../../src/rules/index.ts';
import { playOnSim, setUp } from '../server/helpers.ts';

const ARTIFACTS = join(import.meta.dirname, '../../test-artifacts');
const WAIT = 20_000;

let svc: Service;
let sim: SimBoard;
let browser: Browser;
let board: Page;
let phone: Page;
let dir: string;
const problems: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crownhead-play-'));
  mkdirSync(ARTIFACTS, { recursive: true });
  sim = new SimBoard({ clock: 'manual', seed: 5 });
  svc = await startService({
    board: { source: sim },
    storage: { gamesDir: join(dir, 'games') },
    game: { timeControl: '10m+5s' },
    http: { host: '127.0.0.1', port: 0 },
    log: { level: 'silent' },
  });
  browser = await launchChromium();
  board = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  phone = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, acceptDownloads: true });
  for (const p of [board, phone]) {
    p.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    p.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
    });
  }
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await svc?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const status = (text: string | RegExp) =>
  phone.waitForFunction(
    (want: { source: string; flags: string }) =>
      new RegExp(want.source, want.flags).test(document.getElementById('play-status')?.textContent ?? ''),
    typeof text === 'string'
      ? { source: text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), flags: '' }
      : { source: text.source, flags: text.flags },
    { timeout: WAIT },
  );

const plies = (n: number) =>
  phone.waitForFunction((k: number) => document.querySelectorAll('.pmoves li').length === k, n, { timeout: WAIT });

const game = () => svc.session.game;

/** The friend's move picked by clicking the piece, then each landing (the legal landings are shown first). */
async function clickMove(m: Move): Promise<void> {
  await phone.click(`#psq-${m.from}`);
  for (const to of m.path) {
    await phone.waitForSelector(`#psq-${to}.target`, { timeout: WAIT });
    await phone.click(`#psq-${to}`);
  }
}

/** The friend's (single-landing) move dragged from the piece to its landing. */
async function dragMove(m: Move): Promise<void> {
  const box = async (sq: number) => (await phone.locator(`#psq-${sq}`).boundingBox())!;
  const a = await box(m.from);
  await phone.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await phone.mouse.down();
  await phone.waitForSelector(`#psq-${m.to}.target`, { timeout: WAIT });
  const b = await box(m.to);
  await phone.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 5 });
  await phone.mouse.up();
}

/** The board's player carries out the move the board is waiting for (the friend's) or makes their own. */
async function onBoard(m: Move, n: number): Promise<void> {
  playOnSim(sim, m);
  await plies(n);
}

const move = (from: number, to: number): Move => {
  const m = legalMoves(game().position).find((x) => x.from === from && x.to === to);
  if (!m) throw new Error(`${from}-${to} is not legal here`);
  return m;
};

describe('a friend who has no board plays the board from a phone', () => {
  it('starts from the board page, plays a game with a takeback asked and agreed, resigns, downloads the same PDN as the board, and a rematch swaps colours', async () => {
    expect((await buildPage()).has('/play')).toBe(true);
    // The board's player: "Play a friend online" on the board's page.
    await board.goto(svc.url);
    await board.waitForSelector('#friend-form', { timeout: WAIT });
    await board.fill('#friend-form input[name="name"]', 'Bea');
    await board.fill('#friend-form input[name="host"]', 'Ann');
    await board.click('#friend-form button[type="submit"]');
    const link = (await (await board.waitForSelector('#friend-link', { timeout: WAIT })).textContent())!;
    expect(link).toMatch(new RegExp(`^${svc.url}play/[A-Za-z0-9_-]{24}$`));
    expect(await board.locator('#friend-qr svg path').count()).toBe(1);
    await board.screenshot({ path: join(ARTIFACTS, 'friend-board-panel.png'), fullPage: true });

    // The friend opens the link on a phone: White at the bottom, the board player's move first.
    await phone.goto(link);
    await phone.waitForSelector('.play-board[aria-label*="White at the bottom"]', { timeout: WAIT });
    setUp(sim);
    await status("Ann's move.");
    await onBoard(move(11, 15), 1);
    await status('Your move.');
    await phone.screenshot({ path: join(ARTIFACTS, 'friend-phone-your-move.png') });

    // Bea by clicks: the board's page is told to carry it out; her page says so.
    await clickMove(move(22, 18));
    await status('Ann is carrying out your move 22-18 on the board.');
    expect(svc.session.snapshot().remote?.move?.text).toBe('22-18');
    await onBoard(move(22, 18), 2);
    await onBoard(move(15, 22), 3);
    // A capture by drag.
    await status('Your move.');
    const capture = legalMoves(game().position).find((m) => m.captures.length === 1 && m.path.length === 1)!;
    await dragMove(capture);
    await status(/^Ann is carrying out your move/);
    await onBoard(capture, 4);

    // Ann moves, then asks to take it back; Bea agrees on her phone.
    const ann = legalMoves(game().position)[0]!;
    await onBoard(ann, 5);
    const ask = await fetch(`${svc.url}api/command`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'takeback', side: 'black' }),
    });
    expect(ask.status).toBe(200);
    await phone.waitForSelector('[data-act="takeback-agree"]', { timeout: WAIT });
    await phone.screenshot({ path: join(ARTIFACTS, 'friend-phone-takeback.png') });
    await phone.click('[data-act="takeback-agree"]');
    await plies(4);
    setUp(sim, game().position);
    await status("Ann's move.");

    // Ann plays again; Bea resigns (the button asks twice) and downloads the PDN.
    await onBoard(legalMoves(game().position)[0]!, 5);
    await status('Your move.');
    await phone.click('[data-act="resign"]');
    await phone.click('[data-act="resign"]');
    await status('Ann won (by resignation).');
    const [download] = await Promise.all([phone.waitForEvent('download', { timeout: WAIT }), phone.click('[data-act="pdn"]')]);
    const theirs = readFileSync((await download.path())!, 'utf8');
    const boards = await (await fetch(`${svc.url}api/current.pdn`)).text();
    expect(theirs).toBe(boards);
    expect(theirs).toContain('[White "Bea"]');
    expect(theirs).toContain('[Black "Ann"]');
    expect(theirs).toMatch(/0-1|1-0/);
    await phone.screenshot({ path: join(ARTIFACTS, 'friend-phone-over.png') });

    // The rematch: colours swapped, Bea's board turned round; she moves first now.
    await phone.click('[data-act="rematch"]');
    await phone.waitForSelector('.play-board[aria-label*="Black at the bottom"]', { timeout: WAIT });
    await plies(0);
    setUp(sim, game().position);
    await status('Your move.');
    expect(svc.session.tags).toMatchObject({ Black: 'Bea', White: 'Ann' });
    await clickMove(move(11, 15));
    await status('Ann is carrying out your move 11-15 on the board.');
    await phone.screenshot({ path: join(ARTIFACTS, 'friend-phone-rematch.png') });
    // Phone-first: nothing wider than the screen.
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(problems).toEqual([]);
  }, 120_000);

  it("the friend's page reconnects by itself when the service restarts, to the same game by the same link", async () => {
    const port = svc.port;
    const plies0 = game().plies.length;
    await svc.close();
    await phone.waitForSelector('.conn[data-connected="false"]', { timeout: WAIT });
    sim = new SimBoard({ clock: 'manual', seed: 6 });
    svc = await startService({
      board: { source: sim },
      storage: { gamesDir: join(dir, 'games') },
      game: { timeControl: '10m+5s' },
      http: { host: '127.0.0.1', port },
      log: { level: 'silent' },
    });
    await phone.waitForSelector('.conn[data-connected="true"]', { timeout: WAIT });
    setUp(sim, game().position);
    expect(game().plies).toHaveLength(plies0);
    // (The move that waited on the board was not carried out before the restart: Bea makes it again, by keyboard this time.)
    await status('Your move.');
    await phone.focus('#psq-11');
    await phone.keyboard.press('Enter');
    await phone.waitForSelector('#psq-15.target', { timeout: WAIT });
    expect(await phone.evaluate(() => document.activeElement?.id)).toBe('psq-11');
    await phone.focus('#psq-15');
    await phone.keyboard.press(' ');
    await status('Ann is carrying out your move 11-15 on the board.');
    await onBoard(move(11, 15), 1);
    await status("Ann's move.");
    expect(problems.filter((p) => !/WebSocket|ERR_CONNECTION_REFUSED/.test(p))).toEqual([]);
  }, 60_000);
});

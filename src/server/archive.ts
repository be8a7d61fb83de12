// The archive's JSON side for the page (kept apart from http.ts so the games
// store can change underneath): the list of saved games with players, date,
// event, result and length (GET /api/archive.json), one game as move records
// to replay on the page's board (GET /api/games/:id.json), and deleting a
// saved game (DELETE /api/games/:id, control rights only, never the game in
// play). Lengths are read from each PDN once and kept while the file is
// unchanged.

import type express from 'express';
import { gameFromPdn, readPdn, resultOf, type PdnResult } from '../pdn/index.ts';
import { moveRecord, piecesOf } from '../game/session.ts';
import { makeFen } from '../rules/index.ts';
import type { ArchiveEntry, GameRecord } from '../protocol/v1.ts';
import type { ServerContext } from './context.ts';
import { requesterOf } from './access.ts';

const ID = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,99}$/;

/** "0:04:57" from a {[%clk 0:04:57]} comment, in ms. */
function clkOf(comments: readonly string[]): number | null {
  for (const c of comments) {
    const m = /\[%clk\s+(\d+):(\d{1,2}):(\d{1,2}(?:\.\d+)?)\]/.exec(c);
    if (m) return Math.round((Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3])) * 1000);
  }
  return null;
}

/** The first game of a PDN text as move records (throws with the reader's message when it cannot be read). */
export function gameRecord(id: string, text: string): GameRecord {
  const read = readPdn(text);
  const pdn = read.games[0];
  if (!pdn) throw new Error(read.errors[0]?.message ?? 'the file holds no game');
  const game = gameFromPdn(pdn);
  const first = pdn.start.turn;
  const moves = game.plies.map((ply, k) => ({
    ...moveRecord(ply.move, ply.before, k, first, pdn.options, ply.huff ?? null),
    clock: clkOf(pdn.moves[k]?.after ?? []),
  }));
  const tags: Record<string, string> = {};
  for (const [k, v] of pdn.tags) tags[k] = v;
  const result = pdn.result as PdnResult;
  return { id, tags, startFen: makeFen(pdn.start), start: piecesOf(pdn.start), moves, result: result ?? resultOf(game.outcome) };
}

export function archiveRoutes(app: express.Express, ctx: ServerContext): void {
  const lengths = new Map<string, { modified: number; plies: number | null }>();
  const pliesOf = async (id: string, modified: number): Promise<number | null> => {
    const known = lengths.get(id);
    if (known && known.modified === modified) return known.plies;
    let plies: number | null = null;
    try {
      const text = await ctx.store.readPdn(id);
      const g = text ? readPdn(text).games[0] : undefined;
      plies = g ? g.moves.length : null;
    } catch {
      plies = null;
    }
    lengths.set(id, { modified, plies });
    return plies;
  };

  app.get('/api/archive.json', async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    try {
      const current = ctx.session.gameId;
      const saved = await ctx.store.list();
      if (saved.error) throw new Error(saved.error);
      const games: ArchiveEntry[] = [];
      // One file at a time: the lengths are cached per file, so only new or changed games are read.
      for (const g of saved.games) {
        games.push({
          id: g.id, event: g.event, black: g.black, white: g.white, date: g.date, result: g.result, modified: g.modified,
          plies: g.id === current ? ctx.session.game.plies.length : await pliesOf(g.id, g.modified),
          current: g.id === current,
        });
      }
      if (!games.some((g) => g.current)) {
        // The game in play belongs in the list even when the disk refused to store it.
        const t = ctx.session.tags;
        games.unshift({ id: current, event: t.Event ?? '', black: t.Black ?? '', white: t.White ?? '', date: t.Date ?? '', result: ctx.session.result, plies: ctx.session.game.plies.length, modified: Date.now(), current: true });
      }
      res.json({ current, games });
    } catch (e) {
      res.status(500).json({ ok: false, code: 'internal', message: `the games directory cannot be read: ${(e as Error).message}` });
    }
  });

  app.get('/api/games/:id.json', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const id = String(req.params.id);
    const text = !ID.test(id) ? null : id === ctx.session.gameId ? ctx.session.pdn() : await ctx.store.readPdn(id);
    if (text === null) return void res.status(404).json({ ok: false, code: 'not-found', message: `no saved game "${id}" (see /api/archive.json for the list)` });
    try {
      res.json(gameRecord(id, text));
    } catch (e) {
      res.status(422).json({ ok: false, code: 'bad-pdn', message: `game ${id} cannot be read: ${(e as Error).message}` });
    }
  });

  app.delete('/api/games/:id', (req, res) => {
    const who = requesterOf(req);
    if (!ctx.access.canControl(who)) return void res.status(403).json({ ok: false, code: 'forbidden', message: ctx.access.refusal(who) });
    const id = String(req.params.id).replace(/\.pdn$/, '');
    if (!ID.test(id)) return void res.status(400).json({ ok: false, code: 'bad-request', message: `"${id.slice(0, 40)}" is not a game id` });
    if (id === ctx.session.gameId) return void res.status(409).json({ ok: false, code: 'not-allowed', message: 'the game in play cannot be deleted: start a new game first' });
    try {
      if (!ctx.store.remove(id)) return void res.status(404).json({ ok: false, code: 'not-found', message: `no saved game "${id}"` });
    } catch (e) {
      return void res.status(500).json({ ok: false, code: 'internal', message: `cannot delete game ${id}: ${(e as Error).message}` });
    }
    lengths.delete(id);
    ctx.logger.info({ game: id }, `saved game ${id} deleted from the page`);
    res.json({ ok: true });
  });
}


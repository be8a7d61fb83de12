// The archive's JSON side for the page (kept apart from http.ts so the games
// store can change underneath): the list of saved games with players, date,
// event, result and length (GET /api/archive.json), one game as move records
// to replay on the page's board (GET /api/games/:id.json; ?game=N for the
// Nth game of a PDN collection), and deleting a saved game (DELETE
// /api/games/:id, control rights only, never the game in play) into the
// trash, listed by GET /api/trash.json and put back by POST
// /api/trash/:id/restore (catalogue.ts's Trash: kept TRASH_DAYS). Everything
// is read through the store's catalogue (src/storage/catalogue.ts): one game
// at a time, by its byte range, so a 20 MB collection in the folder costs
// one game's parse per request, never the whole file's. Lengths are read
// once and kept while the file is unchanged.

import type express from 'express';
import { gameFromPdn, readPdn, resultOf, type PdnResult } from '../pdn/index.ts';
import { moveRecord, piecesOf } from '../game/session.ts';
import { makeFen } from '../rules/index.ts';
import type { ApiOkBody, ArchiveEntry, ArchiveList, GameRecord, TrashList } from '../protocol/v1.ts';
import { CollectionError } from '../storage/index.ts';
import { Trash } from '../storage/catalogue.ts';
import type { ServerContext } from './context.ts';
import { requesterOf } from './access.ts';
import { apiError } from './api-error.ts';

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

/** Plies of each saved file's first game, read once and kept while the file is unchanged. */
class Lengths {
  private known = new Map<string, { modified: number; plies: number | null }>();
  constructor(private readonly ctx: ServerContext) {}

  async of(id: string, modified: number): Promise<number | null> {
    const known = this.known.get(id);
    if (known && known.modified === modified) return known.plies;
    let plies: number | null = null;
    try {
      const got = await this.ctx.store.game(id, 1);
      const g = got ? readPdn(got.text).games[0] : undefined;
      plies = g ? g.moves.length : null;
    } catch {
      plies = null;
    }
    this.known.set(id, { modified, plies });
    return plies;
  }

  forget(id: string): void {
    this.known.delete(id);
  }
}

/** The archive list: every saved game (one file at a time, lengths from the cache), the game in play marked and always there. */
async function archiveList(ctx: ServerContext, lengths: Lengths): Promise<ArchiveList> {
  const current = ctx.session.gameId;
  const saved = await ctx.store.list();
  if (saved.error) throw new Error(saved.error);
  const games: ArchiveEntry[] = [];
  for (const g of saved.games) {
    games.push({
      ...headline(g),
      modified: g.modified,
      plies: g.id === current ? ctx.session.game.plies.length : await lengths.of(g.id, g.modified),
      current: g.id === current,
    });
  }
  if (!games.some((g) => g.current)) {
    // The game in play belongs in the list even when the disk refused to store it.
    const t = ctx.session.tags;
    games.unshift({
      id: current,
      event: t.Event ?? '',
      black: t.Black ?? '',
      white: t.White ?? '',
      date: t.Date ?? '',
      result: ctx.session.result,
      plies: ctx.session.game.plies.length,
      modified: Date.now(),
      current: true,
    });
  }
  return { current, games };
}

/** GET /api/games/:id.json[?game=N]: game N (1-based) of a saved file as move records, read by its byte range. */
async function openGame(ctx: ServerContext, req: express.Request, res: express.Response): Promise<void> {
  res.setHeader('Cache-Control', 'no-store');
  const id = String(req.params.id);
  const n = req.query.game === undefined ? 1 : Number(req.query.game);
  if (!Number.isInteger(n) || n < 1)
    return void apiError(res, 400, 'bad-request', `?game= takes a game's number in its file, 1 for the first`);
  let text: string | null;
  try {
    text = !ID.test(id) ? null : id === ctx.session.gameId && n === 1 ? ctx.session.pdn() : ((await ctx.store.game(id, n))?.text ?? null);
  } catch (e) {
    if (!(e instanceof CollectionError)) return void apiError(res, 500, 'internal', `game ${id} cannot be read: ${(e as Error).message}`);
    const tooLarge = e.code === 'too-large';
    return void apiError(res, tooLarge ? 413 : 404, tooLarge ? 'too-large' : 'not-found', `game ${n} of "${id}": ${e.message}`);
  }
  if (text === null) return void apiError(res, 404, 'not-found', `no saved game "${id}" (see /api/archive.json for the list)`);
  try {
    res.json(gameRecord(id, text) satisfies GameRecord);
  } catch (e) {
    apiError(res, 422, 'bad-pdn', `game ${id} cannot be read: ${(e as Error).message}`);
  }
}

export function archiveRoutes(app: express.Express, ctx: ServerContext): void {
  const lengths = new Lengths(ctx);
  const trash = new Trash(ctx.store.catalogue);
  trashRoutes(app, ctx, trash);

  app.get('/api/archive.json', async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    try {
      res.json((await archiveList(ctx, lengths)) satisfies ArchiveList);
    } catch (e) {
      apiError(res, 500, 'internal', `the games directory cannot be read: ${(e as Error).message}`);
    }
  });

  app.get('/api/games/:id.json', (req, res) => openGame(ctx, req, res));

  app.delete('/api/games/:id', async (req, res) => {
    const who = requesterOf(req);
    if (!ctx.access.canControl(who)) return void apiError(res, 403, 'forbidden', ctx.access.refusal(who));
    const id = String(req.params.id).replace(/\.pdn$/, '');
    if (!ID.test(id)) return void apiError(res, 400, 'bad-request', `"${id.slice(0, 40)}" is not a game id`);
    if (id === ctx.session.gameId)
      return void apiError(res, 409, 'not-allowed', 'the game in play cannot be deleted: start a new game first');
    try {
      // Kept in the trash first: if it cannot be kept, nothing is deleted.
      await trash.keep(id);
      if (!ctx.store.remove(id)) return void apiError(res, 404, 'not-found', `no saved game "${id}"`);
    } catch (e) {
      return void apiError(res, 500, 'internal', `cannot delete game ${id}: ${(e as Error).message}`);
    }
    lengths.forget(id);
    ctx.logger.info({ game: id }, `saved game ${id} moved to the trash from the page (kept ${trash.days} days)`);
    res.json({ ok: true } satisfies ApiOkBody);
  });
}

/** The trash: GET /api/trash.json (expired games emptied on the way), POST /api/trash/:id/restore (control rights). */
/** A saved game's line in a list (the archive's, the trash's): its id and header. */
function headline(g: { id: string; event: string; black: string; white: string; date: string; result: string }) {
  const { id, event, black, white, date, result } = g;
  return { id, event, black, white, date, result };
}

function trashRoutes(app: express.Express, ctx: ServerContext, trash: Trash): void {
  app.get('/api/trash.json', async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    try {
      const games = (await trash.list()).map((g) => ({ ...headline(g), deleted: g.deleted }));
      res.json({ days: trash.days, games } satisfies TrashList);
    } catch (e) {
      apiError(res, 500, 'internal', `the trash cannot be read: ${(e as Error).message}`);
    }
  });

  app.post('/api/trash/:id/restore', async (req, res) => {
    const who = requesterOf(req);
    if (!ctx.access.canControl(who)) return void apiError(res, 403, 'forbidden', ctx.access.refusal(who));
    const id = String(req.params.id);
    if (!ID.test(id)) return void apiError(res, 400, 'bad-request', `"${id.slice(0, 40)}" is not a game id`);
    try {
      if (!(await trash.restore(id))) return void apiError(res, 404, 'not-found', `no game "${id}" in the trash`);
    } catch (e) {
      return void apiError(res, 409, 'not-allowed', `cannot restore game ${id}: ${(e as Error).message}`);
    }
    ctx.logger.info({ game: id }, `game ${id} restored from the trash`);
    res.json({ ok: true } satisfies ApiOkBody);
  });
}

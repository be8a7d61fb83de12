// Test helpers for the service: a service on loopback (port 0, temp games
// dir, silent log), alone, on `--board sim`, with a SimBoard on the manual
// clock or as a club of boards; pages connected through the harness's
// WebSocket client (test/harness/ws-client.ts), and a plain hand that sets up
// the board and plays moves on the sim.

import { countsOf } from '../../src/tracking/boards.ts';
import { afterEach } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type WebSocket from 'ws';
import { readPdn } from '../../src/pdn/index.ts';
import { makeFen, START, type Move, type Position } from '../../src/rules/index.ts';
import { SimBoard } from '../../src/sensors/sim/board.ts';
import { SourceBase, type BoardIdentity } from '../../src/sensors/source.ts';
import type { HostCommand } from '../../src/sensors/protocol.ts';
import type { ClubOptions } from '../../src/server/club.ts';
import { startService, type Service, type ServiceOptions, type StorageOptions } from '../../src/server/service.ts';
import { corpusFile } from '../harness/corpus.ts';
import { Client, type Msg } from '../harness/ws-client.ts';

export const tempDirs: string[] = [];
export function tempDir(prefix = 'crownhead-server-'): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(d);
  return d;
}
export function removeTempDirs(): void {
  for (const d of tempDirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

export interface SimService {
  service: Service;
  sim: SimBoard;
  dir: string;
  ws(path?: string, options?: WebSocket.ClientOptions): Promise<Client>;
}

/** A service with a page connected (`c`) and the hello it got. */
export type WatchedService = SimService & { c: Client; hello: Msg };

/**
 * For a test file: `start` services on a sim, or a `club` of boards (closed after each test, with the clients pushed on
 * `clients` and the temp dirs); `watched` also connects a page and waits for its hello. Closing one early is fine
 * (close is idempotent).
 */
export function useServices(): {
  start: (opts?: TestServiceOptions) => Promise<SimService>;
  watched: (opts?: TestServiceOptions) => Promise<WatchedService>;
  club: (club: ClubOptions, opts?: TestClubOptions) => Promise<Service>;
  clients: Client[];
} {
  const running: Service[] = [];
  const clients: Client[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) c.close();
    for (const s of running.splice(0)) await s.close();
    removeTempDirs();
  });
  const start = async (opts: TestServiceOptions = {}) => {
    const s = await startSimService(opts);
    running.push(s.service);
    return s;
  };
  return {
    clients,
    start,
    watched: async (opts = {}) => {
      const s = await start(opts);
      const c = await s.ws();
      clients.push(c);
      const hello = await c.next((m) => m.type === 'hello');
      return { ...s, c, hello };
    },
    club: async (club, opts = {}) => {
      const s = await startClub(club, opts);
      running.push(s);
      return s;
    },
  };
}

/** Options for a test service: any group, the games directory optional (a temp one). */
export type TestServiceOptions = Omit<Partial<ServiceOptions>, 'storage'> & { storage?: Partial<StorageOptions> };
/** A club's other groups (its boards are the `club` group, given apart). */
export type TestClubOptions = Omit<TestServiceOptions, 'club' | 'board'>;

/**
 * A service as the tests start it: http on loopback port 0, a silent log, the games in a temp folder (removed with
 * `removeTempDirs`) unless `storage.gamesDir` names one; every group given is kept, its fields over these. The caller
 * closes it (or `useServices`).
 */
export function startTestService(opts: TestServiceOptions = {}): Promise<Service> {
  return startService({
    ...opts,
    storage: { ...opts.storage, gamesDir: opts.storage?.gamesDir ?? join(tempDir(), 'games') },
    http: { host: '127.0.0.1', port: 0, ...opts.http },
    log: { level: 'silent', ...opts.log },
  });
}

/** A club of boards (`club`: its sources, or its specs and binding) started as `startTestService` starts a service. */
export function startClub(club: ClubOptions, opts: TestClubOptions = {}): Promise<Service> {
  return startTestService({ ...opts, club });
}

/** A service on `--board sim` (a simulated board on the real clock, as the page tests use), its games in `gamesDir`, started as `startTestService` starts one. */
export function startOnSim(gamesDir: string, opts: TestServiceOptions = {}): Promise<Service> {
  return startTestService({ ...opts, board: { spec: 'sim', ...opts.board }, storage: { ...opts.storage, gamesDir } });
}

export async function startSimService(opts: TestServiceOptions = {}): Promise<SimService> {
  const sim = (opts.board?.source as SimBoard | undefined) ?? new SimBoard({ clock: 'manual', seed: 7 });
  const dir = opts.storage?.gamesDir ?? join(tempDir(), 'games');
  const service = await startTestService({ ...opts, board: { ...opts.board, source: sim }, storage: { ...opts.storage, gamesDir: dir } });
  return {
    service,
    sim,
    dir,
    ws: (path = 'ws', options) => Client.connect(service.url.replace(/^http/, 'ws') + path, options),
  };
}

/** Puts a position on the sim and lets the board settle (the session says ready). */
export function setUp(sim: SimBoard, pos?: Position): void {
  const counts = countsOf(pos ?? START);
  for (let s = 1; s <= 32; s++) sim.set(s, counts[s - 1]!);
  sim.advance(600);
}

/** Plays a move by hand on the sim: lift, put down (a crowned man arrives stacked), take the captured pieces, let it settle. */
export function playOnSim(sim: SimBoard, move: Move, gap = 120): void {
  const size = sim.coinsAt(move.from);
  sim.lift(move.from);
  sim.advance(gap);
  sim.set(move.to, move.crowned ? 2 : size);
  sim.advance(gap);
  for (const c of move.captures) {
    sim.lift(c);
    sim.advance(gap);
  }
  sim.advance(600);
}

/** The first `n` moves of a corpus game (OCA_2.0.pdn), as rules Moves. */
export function corpusMoves(n: number, gameIndex = 0): Move[] {
  const { games } = readPdn(corpusFile('OCA_2.0.pdn'));
  const g = games.filter((x) => x.moves.length >= n && makeFen(x.start) === makeFen(START))[gameIndex];
  return g.moves.slice(0, n).map((m) => m.move);
}

/** A board that connects and never sends a frame (a real board standing still): not a SimBoard. */
export class StillBoard extends SourceBase {
  readonly kind = 'serial';
  readonly sent: HostCommand[] = [];
  async open(): Promise<BoardIdentity> {
    const identity: BoardIdentity = {
      type: 'identity',
      proto: 1,
      fw: '1.0.0',
      id: 'STILL',
      n: 32,
      scan: 1000,
      rate: 100,
      mode: 'S',
      extra: {},
    };
    this.setStatus({ state: 'connected', identity });
    return identity;
  }
  async close(): Promise<void> {}
  async send(command: HostCommand): Promise<boolean> {
    this.sent.push(command);
    return true;
  }
}

export const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

/** A raw HTTP request (fetch will not set Host), for access-control tests. */
export function rawRequest(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

export { until } from '../harness/until.ts';

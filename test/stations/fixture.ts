// Test fixture for stations and the hub (src/stations/): brokers (embedded
// aedes, or a real Mosquitto started on a free loopback port with a generated
// config), simulated stations on the manual clock played by the test hand
// (test/harness/table.ts RandomHand: captures before, during or after,
// pieces lifted and put back, pauses), a hub, and the comparisons every test
// ends with (each station's PDN against the hub's copy).

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PdnGame } from '../../src/pdn/index.ts';
import { readPdn } from '../../src/pdn/index.ts';
import { makeFen, START, type Color } from '../../src/rules/index.ts';
import type { SessionEvent } from '../../src/game/index.ts';
import { SimBoard } from '../../src/sensors/sim/board.ts';
import { startStation } from '../../src/stations/station.ts';
import { Hub } from '../../src/stations/hub.ts';
import { RandomHand, handTable } from '../harness/table.ts';
import { CORPUS } from '../harness/corpus.ts';
import { readFileSync } from 'node:fs';

export const SECRET = 'pairing-secret-for-tests';

const dirs: string[] = [];
export function tempDir(prefix = 'crownhead-stations-'): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}
export function removeTempDirs(): void {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** Resolves when `cond()` holds (a failure names what never happened). */
export async function until(cond: () => boolean, what: string, maxMs = 20_000): Promise<void> {
  const end = Date.now() + maxMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

// (The preflight stops the tests with the install line when Debian's mosquitto is missing: never skipped.)
export const MOSQUITTO = '/usr/sbin/mosquitto';

/** A real Mosquitto on a loopback port (restartable on the same port), in-memory persistence. */
export class Mosquitto {
  private proc: ChildProcess | null = null;
  readonly conf: string;
  log = '';
  private constructor(readonly port: number) {
    this.conf = join(tempDir('crownhead-mosquitto-'), 'mosquitto.conf');
    writeFileSync(
      this.conf,
      `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\nlog_dest stderr\nlog_type error\nlog_type warning\n`,
    );
  }
  static async start(): Promise<Mosquitto> {
    const m = new Mosquitto(await freePort());
    await m.run();
    return m;
  }
  get url(): string {
    return `mqtt://127.0.0.1:${this.port}`;
  }
  async run(): Promise<void> {
    const p = spawn(MOSQUITTO, ['-c', this.conf], { stdio: ['ignore', 'ignore', 'pipe'] });
    this.proc = p;
    p.stderr!.on('data', (d) => (this.log += String(d)));
    // Ready once the port takes connections.
    const end = Date.now() + 15_000;
    for (;;) {
      const ok = await new Promise<boolean>((resolve) => {
        const s = require_connect(this.port, resolve);
        s.on('error', () => resolve(false));
      });
      if (ok) return;
      if (p.exitCode !== null) throw new Error(`mosquitto exited (${p.exitCode}): ${this.log}`);
      if (Date.now() > end) throw new Error(`mosquitto did not listen on ${this.port}: ${this.log}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  async stop(): Promise<void> {
    const p = this.proc;
    if (!p || p.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      p.once('exit', () => resolve());
      p.kill('SIGTERM');
    });
    this.proc = null;
  }
}

import { connect as netConnect } from 'node:net';
function require_connect(port: number, done: (ok: boolean) => void) {
  const s = netConnect(port, '127.0.0.1', () => {
    s.end();
    done(true);
  });
  return s;
}

/** A TCP link between a station and the broker that can be cut (every connection dropped, new ones refused) and mended: a network fault. */
export class Link {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private constructor(
    readonly port: number,
    private readonly target: number,
  ) {}
  static async open(target: number): Promise<Link> {
    const l = new Link(await freePort(), target);
    await l.mend();
    return l;
  }
  get url(): string {
    return `mqtt://127.0.0.1:${this.port}`;
  }
  mend(): Promise<void> {
    const server = createServer((inbound) => {
      const outbound = netConnect(this.target, '127.0.0.1');
      for (const s of [inbound, outbound]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      inbound.pipe(outbound);
      outbound.pipe(inbound);
      inbound.on('close', () => outbound.destroy());
      outbound.on('close', () => inbound.destroy());
    });
    this.server = server;
    return new Promise((resolve) => server.listen(this.port, '127.0.0.1', () => resolve()));
  }
  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** Corpus games from the standard start (OCA_2.0.pdn). */
export const GAMES: PdnGame[] = readPdn(readFileSync(join(CORPUS, 'OCA_2.0.pdn'), 'utf8')).games.filter(
  (g) => makeFen(g.start) === makeFen(START),
);

export type TestStation = Awaited<ReturnType<typeof startStation>> & { sim: SimBoard; hand: RandomHand; dir: string };

/** A station: a simulated board on the manual clock, its own games folder, publishing to `url`. */
export async function station(
  url: string,
  id: string,
  seed: number,
  dir = join(tempDir(), 'games'),
  protocolVersion?: 4 | 5,
  mqttExtra: { ca?: Buffer } = {},
): Promise<TestStation> {
  const sim = new SimBoard({ clock: 'manual', seed, id });
  const s = await startStation({
    mqtt: { url, reconnectMs: 100, ...(protocolVersion ? { protocolVersion } : {}), ...mqttExtra },
    secret: SECRET,
    service: { board: { source: sim }, storage: { gamesDir: dir }, http: { port: 0 }, log: { level: 'silent' } },
  });
  const session = s.service.session;
  const table = handTable(sim, session);
  return Object.assign(s, { sim, hand: new RandomHand(table, seed), dir });
}

/** Both brokers a stations test runs on — the embedded one and Mosquitto — each started on demand, its stop handed to `closers`. */
export function brokers(closers: (() => Promise<unknown>)[]): [string, () => Promise<string>][] {
  return [
    [
      'aedes',
      async () => {
        const { startEmbeddedBroker } = await import('../../src/stations/broker.ts');
        const b = await startEmbeddedBroker({ port: 0 });
        closers.push(() => b.close());
        return b.url;
      },
    ],
    [
      'Mosquitto',
      async () => {
        const m = await Mosquitto.start();
        closers.push(() => m.stop());
        return m.url;
      },
    ],
  ];
}

/** Sets the start position up on a station's board and lets it settle. */
export function setUpStart(st: TestStation): void {
  st.sim.setupStart();
  st.sim.advance(700);
}

/** Plays `n` moves of a corpus game on a station's board with the test hand; returns the plies the station has. */
export function play(st: TestStation, game: PdnGame, from: number, to: number): number {
  for (const node of game.moves.slice(from, to)) {
    st.hand.playMove(node.move);
    st.sim.advance(800);
  }
  return st.service.session.game.plies.length;
}

export async function hub(url: string, dir = join(tempDir(), 'hub'), retryMs = 300, clientId?: string): Promise<Hub> {
  return Hub.start({
    mqtt: { url, reconnectMs: 100, ...(clientId ? { clientId } : {}) },
    secret: SECRET,
    retryMs,
    service: { storage: { gamesDir: dir }, http: { port: 0 }, log: { level: 'silent' } },
  });
}

/** The hub's copy of a station's game equals the station's own: same PDN. */
export function samePdn(h: Hub, st: TestStation): boolean {
  const room = h.room(st.service.board.identity.id);
  return room !== null && room.session.pdn() === st.service.session.pdn();
}

/** A simulated station playing the far board `far` (its board and the side played there): its service, sim, session, hand and events. */
export async function farBoard(
  url: string,
  id: string,
  seed: number,
  far: { board: string; side: Color },
  closers: (() => Promise<unknown>)[],
) {
  const sim = new SimBoard({ clock: 'manual', seed, id });
  const s = await startStation({
    mqtt: { url, reconnectMs: 100 },
    secret: SECRET,
    opponent: far,
    service: {
      board: { source: sim },
      storage: { gamesDir: join(tempDir(), id) },
      http: { port: 0 },
      log: { level: 'silent' },
      game: { tags: { Event: 'Two clubs', Site: 'Internet', Black: 'Ann', White: 'Bob' }, timeControl: '10m+5s' },
    },
  });
  closers.push(() => s.close());
  const session = s.service.session;
  const events: SessionEvent[] = [];
  session.on((e) => events.push(e));
  return { ...s, sim, session, hand: new RandomHand(handTable(sim, session), seed), events };
}

export type FarBoard = Awaited<ReturnType<typeof farBoard>>;

/** Ann plays Black at NORTH, Bob White at SOUTH (their sims seeded `seeds`); both on the broker, both boards set up. */
export async function twoFarBoards(
  url: string,
  seeds: [number, number],
  closers: (() => Promise<unknown>)[],
): Promise<{ north: FarBoard; south: FarBoard }> {
  const north = await farBoard(url, 'NORTH', seeds[0], { board: 'SOUTH', side: 'white' }, closers);
  const south = await farBoard(url, 'SOUTH', seeds[1], { board: 'NORTH', side: 'black' }, closers);
  await until(() => north.client.connected && south.client.connected, 'both boards on the broker');
  for (const s of [north, south]) {
    s.sim.setupStart();
    s.sim.advance(700);
  }
  return { north, south };
}

// `crownhead serve` (what `npm start` runs): its help, the settings
// (serve-settings.ts: flags, then CROWNHEAD_* environment variables, then a
// JSON config file, then defaults), the logger (pretty on a terminal, JSON
// lines otherwise), the service with what it says at start-up, and a clean
// shutdown on SIGINT/SIGTERM.

import { networkInterfaces } from 'node:os';
import { pino, type Logger, type LevelWithSilent } from 'pino';
import { BALLOTS } from '../rules/index.ts';
import { ELEVEN_MAN_COUNT } from '../rules/eleven-man.ts';
import { isLoopbackBind } from '../server/access.ts';
import type { Service } from '../server/service.ts';
import { resolveServeSettings } from './serve-settings.ts';
import { SERVE_USAGE } from './usage.ts';
import type { Io } from './io.ts';

export { OTHER_ENV, resolveServeSettings, type ServeSettings } from './serve-settings.ts';

const HELP = `${SERVE_USAGE}

Runs the companion: reads the board, follows the game, serves the page.

Board and server
  --board SPEC          auto (default: every Crownhead board on USB, else the simulated board),
                        sim[:SEED], sim:NAME[:SEED] (a simulated board with its own id, e.g.
                        two stations on one machine: sim:NORTH, sim:SOUTH), serial[:PATH],
                        firmata:PATH, emulator; give it once per board to follow several (club mode)
  --sim-boards N        add N simulated boards (SIM-1 … SIM-N): club mode for demos and tests
  --public-watch        club mode: the spectators' page (/watch) and the broadcast
                        (/broadcast.pdn) need no token
  --host ADDR           address to listen on (default 127.0.0.1; 0.0.0.0 for other devices,
                        which then need the control token printed at start-up)
  --port N              port (default 8080; 0 picks a free one)
  --require-token       changing the game needs the control token, on this machine too
                        (pages on this machine may still watch without one)
  --games DIR           where games are saved (default ./games)
  --record FILE         append the raw board frames to FILE (for bug reports)
  --log-level LEVEL     fatal, error, warn, info (default), debug, trace or silent

Game
  --black NAME, --white NAME, --event NAME, --site NAME, --round TEXT   PDN tags
  --first-player SIDE   black (default), white or random
  --ballot N|random     start from ACF three-move ballot N (1-${BALLOTS.length}); random never draws a barred one
  --crossboard-only     a random ballot is never a mail-play one either
  --eleven-man N|random start from eleven-man ballot N (1-${ELEVEN_MAN_COUNT}): one man off each side, then the opening
  --fen FEN             start from this position
  --time-control SPEC   e.g. 5m+3s (Fischer) or 40/90m,30m (moves per period)
                        or 5m/move,1m/forced[,1m/grace] (ACF time per move: less when
                        exactly one capture is possible; lost a grace period after "time")
  --huffing             huffing variant (captures optional; a missed jump may be huffed)
  --crown-continue      a man crowned mid-jump continues as a king
  --auto-draw           end the game as a draw as soon as one can be claimed
  --tournament          no takebacks; a correction after an illegal move must use the piece moved
  --computer SIDE:LEVEL play the computer: it takes SIDE (black or white) at level 1-10
                        (e.g. white:7); its moves are shown and spoken, you carry them out
  --friend NAME[:SIDE]  play a friend who has no board: they play SIDE (white, the default,
                        or black) from a browser at the seat link printed (and shown as a QR
                        code); you carry out their moves. The seat is kept across restarts
  --public-url URL      the address other devices reach this service by (e.g. behind a
                        router or proxy): the friend's link is made on it

Settings come from the flags, else environment variables (CROWNHEAD_BOARD,
CROWNHEAD_PORT, CROWNHEAD_TIME_CONTROL… one per flag; booleans 1/0, true/false),
else a JSON config file (--config FILE or CROWNHEAD_CONFIG, else
./crownhead.config.json if present) whose keys are the flag names, e.g.
{"board": "sim", "port": 8080, "black": "Ann", "huffing": true}.
CROWNHEAD_CACHE says where the endgame database is cached (default ~/.cache/crownhead).`;

async function makeLogger(level: LevelWithSilent): Promise<Logger> {
  if (process.stdout.isTTY) {
    // Readable lines for a person at a terminal; JSON lines otherwise (pino-pretty loaded only then).
    const { default: pretty } = await import('pino-pretty');
    return pino({ level }, pretty({ colorize: true, sync: true, translateTime: 'HH:MM:ss', ignore: 'pid,hostname' }));
  }
  return pino({ level }, pino.destination({ dest: 1, sync: true }));
}

/** Addresses other devices can use when the server listens on every interface. */
function lanAddresses(): string[] {
  const out: string[] = [];
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (!a.internal && a.family === 'IPv4') out.push(a.address);
  }
  return out;
}

export async function serveCommand(argv: string[], io: Io, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const settings = resolveServeSettings(argv, env);
  if (!settings) {
    io.out(HELP);
    return 0;
  }
  const logger = await makeLogger(settings.logLevel);
  if (settings.configFile) logger.info({ config: settings.configFile }, `settings from ${settings.configFile}`);
  let service: Service;
  try {
    // Loaded only now: a settings error is reported without loading the server.
    const { startService } = await import('../server/service.ts');
    service = await startService({ ...settings.options, log: { logger } });
  } catch (e) {
    // One line, on standard error (the log may be JSON for a service manager; this is for the person).
    io.err(`crownhead serve: cannot start: ${(e as Error).message}`);
    return 1;
  }
  // (Piped, the log is JSON lines: the address also goes to standard error as a plain line a person can read.)
  const plain = process.stdout.isTTY ? null : (line: string) => process.stderr.write(line + '\n');
  // The signal handlers first: whoever reads "ready" may stop the service at once, and must find it listening for that.
  const stopped = untilSignal(service, logger);
  announce(service, settings.options.storage.gamesDir, logger, settings.options.board?.spec ?? 'auto', plain);
  if (service.rooms.length > 1) announceClub(service, logger, plain);
  await announceFriend(service, settings.options.http?.publicUrl, io, logger, plain);
  return stopped;
}

/** A friend's seat: its link (on the public URL, else an address other devices can use) and, on a terminal, its QR code. */
async function announceFriend(
  service: Service,
  publicUrl: string | undefined,
  io: Io,
  logger: Logger,
  plain: ((line: string) => void) | null,
): Promise<void> {
  const seat = service.seat;
  if (!seat?.token) return;
  const wild = service.host === '0.0.0.0' || service.host === '::';
  const lan = wild && !publicUrl ? lanAddresses()[0] : undefined;
  const link = lan ? `http://${lan}:${service.port}/play/${seat.token}` : service.seatLink()!;
  const side = seat.side();
  const line = `Friend: ${seat.name} ${side ? `plays ${side === 'black' ? 'Black' : 'White'} from a browser` : 'has a seat (not in the game now)'} — their link: ${link}`;
  logger.info({ link }, line);
  plain?.(line);
  if (isLoopbackBind(service.host) && !publicUrl)
    logger.warn(
      'the service listens on this machine only: start it with --host 0.0.0.0 (and --public-url) so the friend can reach the link',
    );
  // (The QR code on a terminal only: piped, standard output is the log's JSON lines.)
  if (process.stdout.isTTY) io.out((await import('../server/qr.ts')).qrText(link));
}

/** What the person starting the server needs: the board, where games go, the address (and tokens for other devices). */
function announce(service: Service, gamesDir: string, logger: Logger, spec: string, plain: ((line: string) => void) | null): void {
  const { board } = service;
  // No board plugged in is the usual way to try Crownhead: said plainly, not as a warning (it is one if a board was asked for).
  if (board.fallback)
    logger[spec === 'auto' ? 'info' : 'warn'](
      { board: 'sim', fallback: board.fallback },
      `No Crownhead board found (${board.fallback.replace(/ — using the simulated board$/, '').replace(/^no board found:\s*/i, '')}). Running on the simulated board: move pieces with the hand on the page.`,
    );
  else logger.info({ board: service.source.kind }, `Board: ${board.description}`);
  logger.info({ games: gamesDir }, `Games are saved in ${gamesDir}`);
  if (!service.storage().ok) logger.error(`Games are NOT being saved: ${service.storage().message}`);
  const remote = !isLoopbackBind(service.host);
  const tokenUrl = (u: string) => (service.token ? `${u}?token=${service.token}` : u);
  if (remote) {
    const urls =
      service.host === '0.0.0.0' || service.host === '::' ? lanAddresses().map((a) => `http://${a}:${service.port}/`) : [service.url];
    logger.info({ token: service.token }, `Control token for other devices: ${service.token}`);
    for (const u of urls) logger.info(`On another device open ${tokenUrl(u)} to play, or ${u}?token=${service.readToken} to watch only`);
  }
  logger.info(
    { url: service.url, port: service.port, game: service.session.gameId, ...(service.token ? { token: service.token } : {}) },
    `Crownhead is ready: open ${service.token && !remote ? tokenUrl(service.url) : service.url} in a browser`,
  );
  plain?.(`Crownhead is ready: open ${service.token && !remote ? tokenUrl(service.url) : service.url} in a browser`);
}

/** Club mode: every board with its number and page, and where the arbiter and the spectators go. */
function announceClub(service: Service, logger: Logger, plain: ((line: string) => void) | null): void {
  for (const r of service.rooms) {
    const b = r.board!;
    logger.info({ board: b.identity.id, number: r.number }, `Board ${r.number}: ${b.description} — ${service.url}boards/${b.identity.id}/`);
  }
  const token = service.token ? `?token=${service.token}` : '';
  const lines = [
    `Arbiter: ${service.url}arbiter${token}`,
    `Spectators: ${service.url}watch — the broadcast as PDN: ${service.url}broadcast.pdn`,
  ];
  for (const line of lines) {
    logger.info(line);
    plain?.(line);
  }
}

/** Runs until SIGINT/SIGTERM, then closes the service (a second signal, or 5 s, exits at once). Resolves with the exit code. */
function untilSignal(service: Service, logger: Logger): Promise<number> {
  return new Promise<number>((resolveExit) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) {
        logger.warn(`${signal} again: exiting now`);
        process.exit(130);
      }
      stopping = true;
      logger.info(`${signal}: shutting down`);
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      const force = setTimeout(() => {
        logger.error('shutdown took too long: exiting');
        process.exit(1);
      }, 5000);
      force.unref();
      service.close().then(
        () => resolveExit(0),
        (e) => {
          logger.error({ err: e }, 'error while shutting down');
          resolveExit(1);
        },
      );
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

// `crownhead serve` (what `npm start` runs): the settings from flags, then
// CROWNHEAD_* environment variables, then a JSON config file, then defaults
// (each checked, errors naming the flag / variable / key at fault), the
// logger (pretty on a terminal, JSON lines otherwise), the service, and a
// clean shutdown on SIGINT/SIGTERM.

import { existsSync, readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { resolve } from 'node:path';
import { pino, type Logger, type LevelWithSilent } from 'pino';
import { parseTimeControl, TimeControlError } from '../game/clock.ts';
import { ComputerSettingError, parseComputerSetting, type ComputerSetting } from '../game/computer.ts';
import { FenError, parseFen, BALLOTS } from '../rules/index.ts';
import { ELEVEN_MAN_COUNT } from '../rules/eleven-man.ts';
import { isLoopbackBind } from '../server/access.ts';
import type { ServiceOptions } from '../server/service.ts';
import { SERVE_USAGE } from './usage.ts';
import { parse, UsageError } from './args.ts';
import type { Io } from './io.ts';


const HELP = `${SERVE_USAGE}

Runs the companion: reads the board, follows the game, serves the page.

Board and server
  --board SPEC          auto (default: a Crownhead board on USB, else the simulated board),
                        sim[:SEED], serial[:PATH], firmata:PATH, emulator
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

Settings come from the flags, else environment variables (CROWNHEAD_BOARD,
CROWNHEAD_PORT, CROWNHEAD_TIME_CONTROL… one per flag; booleans 1/0, true/false),
else a JSON config file (--config FILE or CROWNHEAD_CONFIG, else
./crownhead.config.json if present) whose keys are the flag names, e.g.
{"board": "sim", "port": 8080, "black": "Ann", "huffing": true}.
CROWNHEAD_CACHE says where the endgame database is cached (default ~/.cache/crownhead).`;

type Kind = 'string' | 'boolean' | 'number';
const SETTINGS = {
  board: 'string', host: 'string', port: 'number', games: 'string', record: 'string', 'log-level': 'string', 'require-token': 'boolean',
  black: 'string', white: 'string', event: 'string', site: 'string', round: 'string',
  'first-player': 'string', ballot: 'string', 'eleven-man': 'string', 'crossboard-only': 'boolean', fen: 'string', 'time-control': 'string',
  huffing: 'boolean', 'crown-continue': 'boolean', 'auto-draw': 'boolean', tournament: 'boolean', computer: 'string',
} as const satisfies Record<string, Kind>;
type Key = keyof typeof SETTINGS;
const KEYS = Object.keys(SETTINGS) as Key[];
const envName = (k: string) => 'CROWNHEAD_' + k.toUpperCase().replace(/-/g, '_');
/**
 * The CROWNHEAD_* variables that are not a setting's (those are one per flag),
 * with who reads them: serve accepts them all (it runs the engine, which reads
 * the cache's). The README lists them; test/cli/env.test.ts walks that list.
 */
export const OTHER_ENV = {
  CROWNHEAD_CONFIG: 'serve: the JSON config file',
  CROWNHEAD_CACHE: "the engine: where the endgame database is cached (src/engine/egdb.ts)",
  CROWNHEAD_FROM_SOURCE: 'bin/crownhead.js: run the sources, not the bundle',
} as const;
const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export interface ServeSettings {
  options: Omit<ServiceOptions, 'logger'>;
  logLevel: LevelWithSilent;
  /** where each setting came from: flag, env, config, default */
  from: Partial<Record<Key, string>>;
  configFile: string | null;
}

interface Raw {
  value: string | boolean | number;
  from: string;
}

/** Reads and checks the settings. Throws UsageError naming what is wrong. Returns null for --help. */
export function resolveServeSettings(argv: string[], env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ServeSettings | null {
  const flagSpec = Object.fromEntries([
    ...KEYS.map((k) => [k, { type: SETTINGS[k] === 'boolean' ? 'boolean' : 'string' }] as const),
    ['config', { type: 'string' }] as const,
    ['help', { type: 'boolean', short: 'h' }] as const,
  ]) as Record<string, { type: 'string' | 'boolean'; short?: string }>;
  const { values, positionals } = parse(argv, flagSpec, SERVE_USAGE);
  if (values.help) return null;
  if (positionals.length) throw new UsageError(`serve takes no arguments, got "${positionals[0]}"\n${SERVE_USAGE}`);

  // Environment: every CROWNHEAD_* variable must be one we know (a setting's, or one of OTHER_ENV).
  const known = new Set<string>([...KEYS.map(envName), ...Object.keys(OTHER_ENV)]);
  for (const name of Object.keys(env)) {
    if (name.startsWith('CROWNHEAD_') && !known.has(name)) {
      throw new UsageError(`unknown environment variable ${name} (known: ${[...known.keys()].join(', ')})`);
    }
  }

  // Config file: --config, CROWNHEAD_CONFIG, or ./crownhead.config.json.
  const given = (values.config as string | undefined) ?? env.CROWNHEAD_CONFIG;
  const configFile = given !== undefined ? resolve(cwd, given) : existsSync(resolve(cwd, 'crownhead.config.json')) ? resolve(cwd, 'crownhead.config.json') : null;
  const config: Partial<Record<Key, Raw>> = {};
  if (configFile) {
    let text: string;
    try {
      text = readFileSync(configFile, 'utf8');
    } catch (e) {
      throw new UsageError(`cannot read the config file ${configFile}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      throw new UsageError(`config file ${configFile} is not valid JSON: ${(e as Error).message}`);
    }
    if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new UsageError(`config file ${configFile} must hold a JSON object like {"board": "sim"}`);
    for (const [k, v] of Object.entries(json)) {
      if (!(k in SETTINGS)) throw new UsageError(`config file ${configFile}: unknown key "${k}" (known: ${KEYS.join(', ')})`);
      const kind = SETTINGS[k as Key];
      const ok = kind === 'boolean' ? typeof v === 'boolean' : kind === 'number' ? typeof v === 'number' || typeof v === 'string' : typeof v === 'string' || ((k === 'ballot' || k === 'eleven-man') && typeof v === 'number') || (k === 'round' && typeof v === 'number');
      if (!ok) throw new UsageError(`config file ${configFile}: "${k}" must be ${kind === 'boolean' ? 'true or false' : kind === 'number' ? 'a number' : 'a string'}, not ${JSON.stringify(v)}`);
      config[k as Key] = { value: v as Raw['value'], from: `"${k}" in ${configFile}` };
    }
  }

  const raw: Partial<Record<Key, Raw>> = {};
  const from: ServeSettings['from'] = {};
  for (const k of KEYS) {
    const flag = values[k];
    const e = env[envName(k)];
    if (flag !== undefined) {
      raw[k] = { value: flag as string | boolean, from: `--${k}` };
      from[k] = 'flag';
    } else if (e !== undefined) {
      let value: string | boolean = e;
      if (SETTINGS[k] === 'boolean') {
        const t = e.trim().toLowerCase();
        if (['1', 'true', 'yes', 'on'].includes(t)) value = true;
        else if (['0', 'false', 'no', 'off', ''].includes(t)) value = false;
        else throw new UsageError(`${envName(k)} must be 1/0, true/false, yes/no or on/off, not "${e}"`);
      }
      raw[k] = { value, from: envName(k) };
      from[k] = 'env';
    } else if (config[k]) {
      raw[k] = config[k];
      from[k] = 'config';
    }
  }

  const str = (k: Key): string | undefined => (raw[k] === undefined ? undefined : String(raw[k]!.value));
  const bool = (k: Key): boolean => raw[k]?.value === true;
  const bad = (k: Key, why: string): never => {
    throw new UsageError(`${raw[k]!.from}: ${why}`);
  };

  const board = str('board') ?? 'auto';
  if (!/^(auto|emulator|sim(:-?\d+)?|serial(:.+)?|firmata:.+|\/.+|COM\d+)$/i.test(board)) {
    bad('board', `"${board}" is not a board (auto, sim[:SEED], serial[:PATH], firmata:PATH, emulator)`);
  }
  const host = str('host') ?? '127.0.0.1';
  if (!host.trim() || /[\s/]/.test(host)) bad('host', `"${host}" is not an address to listen on`);
  let port = 8080;
  if (raw.port) {
    const p = String(raw.port.value).trim();
    if (!/^\d+$/.test(p) || Number(p) > 65535) bad('port', `the port must be a whole number from 0 to 65535, not "${p}"`);
    port = Number(p);
  }
  const games = str('games') ?? './games';
  if (!games.trim()) bad('games', 'the games directory cannot be empty');
  const logLevel = (str('log-level') ?? 'info').toLowerCase();
  if (!LEVELS.includes(logLevel)) bad('log-level', `"${logLevel}" is not a log level (${LEVELS.join(', ')})`);

  const firstPlayer = str('first-player');
  if (firstPlayer !== undefined && !['black', 'white', 'random'].includes(firstPlayer)) bad('first-player', `must be black, white or random, not "${firstPlayer}"`);
  let ballot: number | 'random' | undefined;
  const b = str('ballot');
  if (b !== undefined) {
    if (b === 'random') ballot = 'random';
    else if (/^\d+$/.test(b) && Number(b) >= 1 && Number(b) <= BALLOTS.length) ballot = Number(b);
    else bad('ballot', `must be a ballot number from 1 to ${BALLOTS.length} or "random", not "${b}"`);
  }
  let elevenMan: number | 'random' | undefined;
  const e11 = str('eleven-man');
  if (e11 !== undefined) {
    if (e11 === 'random') elevenMan = 'random';
    else if (/^\d+$/.test(e11) && Number(e11) >= 1 && Number(e11) <= ELEVEN_MAN_COUNT) elevenMan = Number(e11);
    else bad('eleven-man', `must be an eleven-man ballot number from 1 to ${ELEVEN_MAN_COUNT} or "random", not "${e11}"`);
  }
  const fen = str('fen');
  if (fen !== undefined) {
    try {
      parseFen(fen);
    } catch (e) {
      if (e instanceof FenError) bad('fen', e.message);
      throw e;
    }
  }
  if (fen !== undefined && ballot !== undefined) throw new UsageError(`give either a FEN (${raw.fen!.from}) or a ballot (${raw.ballot!.from}), not both`);
  if (elevenMan !== undefined && (fen !== undefined || ballot !== undefined)) throw new UsageError(`give either an eleven-man ballot (${raw['eleven-man']!.from}) or a ${fen !== undefined ? `FEN (${raw.fen!.from})` : `three-move ballot (${raw.ballot!.from})`}, not both`);
  if (elevenMan !== undefined && firstPlayer !== undefined) throw new UsageError(`Black moves first in an eleven-man ballot: drop ${raw['first-player']!.from}`);
  if (fen !== undefined && firstPlayer !== undefined) throw new UsageError(`the FEN says who moves first: drop ${raw['first-player']!.from}`);
  const timeControl = str('time-control');
  if (timeControl !== undefined) {
    try {
      parseTimeControl(timeControl);
    } catch (e) {
      if (e instanceof TimeControlError) bad('time-control', e.message);
      throw e;
    }
  }
  const computerText = str('computer');
  let computer: ComputerSetting | null = null;
  if (computerText !== undefined) {
    try {
      computer = parseComputerSetting(computerText);
    } catch (e) {
      if (e instanceof ComputerSettingError) bad('computer', e.message);
      throw e;
    }
  }
  const record = str('record');
  if (record !== undefined && !record.trim()) bad('record', 'the recording file name cannot be empty');

  const tags: Record<string, string> = {};
  for (const [k, tag] of [['event', 'Event'], ['site', 'Site'], ['round', 'Round'], ['black', 'Black'], ['white', 'White']] as const) {
    const v = str(k);
    if (v === undefined) continue;
    if (v.length > 200) bad(k, 'at most 200 characters');
    tags[tag] = v;
  }

  return {
    options: {
      board,
      host,
      port,
      gamesDir: resolve(cwd, games),
      tags,
      timeControl,
      rules: { huffing: bool('huffing'), crownContinue: bool('crown-continue'), autoDraw: bool('auto-draw') },
      tournament: bool('tournament'),
      computer,
      requireToken: bool('require-token'),
      fen,
      ballot,
      elevenMan,
      crossboardOnly: bool('crossboard-only'),
      firstPlayer: firstPlayer as ServiceOptions['firstPlayer'],
      record: record === undefined ? undefined : resolve(cwd, record),
    },
    logLevel: logLevel as LevelWithSilent,
    from,
    configFile,
  };
}

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
  const o = settings.options;
  if (settings.configFile) logger.info({ config: settings.configFile }, `settings from ${settings.configFile}`);
  let service;
  try {
    // Loaded only now: a settings error is reported without loading the server.
    const { startService } = await import('../server/service.ts');
    service = await startService({ ...o, logger });
  } catch (e) {
    // One line, on standard error (the log may be JSON for a service manager; this is for the person).
    io.err(`crownhead serve: cannot start: ${(e as Error).message}`);
    return 1;
  }
  const { board } = service;
  if (board.fallback) logger.warn({ board: 'sim', fallback: board.fallback }, `No Crownhead board found (${board.fallback.replace(/ — using the simulated board$/, '').replace(/^no board found:\s*/i, '')}). Running on the simulated board: move pieces with the hand on the page.`);
  else logger.info({ board: service.source.kind }, `Board: ${board.description}`);
  logger.info({ games: o.gamesDir }, `Games are saved in ${o.gamesDir}`);
  if (!service.storage().ok) logger.error(`Games are NOT being saved: ${service.storage().message}`);
  const remote = !isLoopbackBind(service.host);
  const tokenUrl = (u: string) => (service.token ? `${u}?token=${service.token}` : u);
  if (remote) {
    const urls = service.host === '0.0.0.0' || service.host === '::' ? lanAddresses().map((a) => `http://${a}:${service.port}/`) : [service.url];
    logger.info({ token: service.token }, `Control token for other devices: ${service.token}`);
    for (const u of urls) logger.info(`On another device open ${tokenUrl(u)} to play, or ${u}?token=${service.readToken} to watch only`);
  }
  logger.info({ url: service.url, port: service.port, game: service.session.gameId, ...(service.token ? { token: service.token } : {}) }, `Crownhead is ready: open ${service.token && !remote ? tokenUrl(service.url) : service.url} in a browser`);

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

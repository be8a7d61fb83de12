// `crownhead serve`'s settings, in steps: the flags, then CROWNHEAD_*
// environment variables (unknown ones refused), then a JSON config file, then
// defaults; each value checked, errors naming the flag / variable / key at
// fault; and the service's options built from them, grouped by concern
// (board, storage, game, http; src/server/service.ts).

import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { LevelWithSilent } from 'pino';
import { parseTimeControl } from '../game/clock.ts';
import { parseComputerSetting, type ComputerSetting } from '../game/computer.ts';
import { parseFen, BALLOTS, type Color } from '../rules/index.ts';
import { ELEVEN_MAN_COUNT } from '../rules/eleven-man.ts';
import type { GameSettings, ServiceOptions, StartPosition } from '../server/service.ts';
import { SERVE_USAGE } from './usage.ts';
import { parseBoardSpec } from '../sensors/open.ts';
import { parse, UsageError } from './args.ts';

type Kind = 'string' | 'boolean' | 'number';
export const SETTINGS = {
  board: 'string',
  'sim-boards': 'number',
  'public-watch': 'boolean',
  host: 'string',
  port: 'number',
  games: 'string',
  record: 'string',
  'log-level': 'string',
  'require-token': 'boolean',
  black: 'string',
  white: 'string',
  event: 'string',
  site: 'string',
  round: 'string',
  'first-player': 'string',
  ballot: 'string',
  'eleven-man': 'string',
  'crossboard-only': 'boolean',
  fen: 'string',
  'time-control': 'string',
  huffing: 'boolean',
  'crown-continue': 'boolean',
  'auto-draw': 'boolean',
  tournament: 'boolean',
  computer: 'string',
  friend: 'string',
  'public-url': 'string',
} as const satisfies Record<string, Kind>;
type Key = keyof typeof SETTINGS;
const KEYS = Object.keys(SETTINGS) as Key[];
export const envName = (k: string) => 'CROWNHEAD_' + k.toUpperCase().replace(/-/g, '_');

/**
 * The CROWNHEAD_* variables that are not a setting's (those are one per flag),
 * with who reads them: serve accepts them all (it runs the engine, which reads
 * the cache's). The README lists them; test/cli/env.test.ts walks that list.
 */
export const OTHER_ENV = {
  CROWNHEAD_CONFIG: 'serve: the JSON config file',
  CROWNHEAD_CACHE: 'the engine: where the endgame database is cached (src/engine/egdb.ts)',
  CROWNHEAD_FROM_SOURCE: 'bin/crownhead.js: run the sources, not the bundle',
} as const;
const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export interface ServeSettings {
  /** the service's options, by concern (the logger is made from logLevel) */
  options: Omit<ServiceOptions, 'log'>;
  logLevel: LevelWithSilent;
  /** where each setting came from: flag, env, config, default */
  from: Partial<Record<Key, string>>;
  configFile: string | null;
}

interface Raw {
  value: string | boolean | number;
  from: string;
}

/** The settings found, with where each came from, and the checks' helpers. */
class Found {
  constructor(readonly raw: Partial<Record<Key, Raw>>) {}
  str(k: Key): string | undefined {
    return this.raw[k] === undefined ? undefined : String(this.raw[k]!.value);
  }
  bool(k: Key): boolean {
    return this.raw[k]?.value === true;
  }
  from(k: Key): string {
    return this.raw[k]!.from;
  }
  bad(k: Key, why: string): never {
    throw new UsageError(`${this.from(k)}: ${why}`);
  }
}

/** Reads and checks the settings. Throws UsageError naming what is wrong. Returns null for --help. */
export function resolveServeSettings(argv: string[], env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ServeSettings | null {
  const flags = readFlags(argv);
  if (!flags) return null;
  checkEnvironment(env);
  const configFile = findConfigFile(flags.config, env, cwd);
  const config = configFile ? readConfigFile(configFile) : {};
  const { raw, from } = layer(flags.values, env, config);
  const s = new Found(raw);
  // Checked in the order of the help text: board and server, then the game.
  const record = s.str('record');
  if (record !== undefined && !record.trim()) s.bad('record', 'the recording file name cannot be empty');
  const boards = boardOptions(s, record === undefined ? undefined : resolve(cwd, record));
  const http = { ...checkHost(s), requireToken: s.bool('require-token'), publicWatch: s.bool('public-watch'), ...publicUrl(s) };
  const games = s.str('games') ?? './games';
  if (!games.trim()) s.bad('games', 'the games directory cannot be empty');
  const logLevel = (s.str('log-level') ?? 'info').toLowerCase();
  if (!LEVELS.includes(logLevel)) s.bad('log-level', `"${logLevel}" is not a log level (${LEVELS.join(', ')})`);
  const game = gameSettings(s);
  const friend = friendOf(s, tagsOf(s));
  return {
    options: {
      ...boards,
      ...(friend ? { friend } : {}),
      storage: { gamesDir: resolve(cwd, games) },
      game: { ...game, tags: tagsOf(s) },
      http,
    },
    logLevel: logLevel as LevelWithSilent,
    from,
    configFile,
  };
}

/** --public-url: the address other devices reach the service by (a friend's seat link is made on it). */
function publicUrl(s: Found): { publicUrl?: string } {
  const u = s.str('public-url');
  if (u === undefined) return {};
  let url: URL;
  try {
    url = new URL(u);
  } catch {
    return s.bad('public-url', `"${u}" is not an address such as https://club.example:8443`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') s.bad('public-url', `"${u}" must start with http:// or https://`);
  return { publicUrl: u.replace(/\/+$/, '') };
}

/** --friend NAME[:white|black]: a friend with no board plays from a browser (default White); the board's player is the other side's tag. */
function friendOf(s: Found, tags: Record<string, string>): ServiceOptions['friend'] {
  const f = s.str('friend');
  if (f === undefined) return undefined;
  const m = /^(.*?)(?::(white|black))?$/i.exec(f.trim())!;
  const name = m[1]!.trim();
  if (!name || name.length > 60) s.bad('friend', "give the friend's name (1-60 characters), then optionally :white or :black");
  if (s.raw.computer) s.bad('friend', 'a game with a friend has no computer player: leave out --computer');
  const side = (m[2]?.toLowerCase() ?? 'white') as Color;
  const host = tags[side === 'white' ? 'Black' : 'White'];
  return { name, side, ...(host ? { host } : {}) };
}

/** The command line; null for --help. */
function readFlags(argv: string[]): { values: Record<string, string | boolean | undefined>; config: string | undefined } | null {
  const flagSpec = Object.fromEntries([
    ...KEYS.map(
      (k) => [k, { type: SETTINGS[k] === 'boolean' ? 'boolean' : 'string', ...(k === 'board' ? { multiple: true } : {}) }] as const,
    ),
    ['config', { type: 'string' }] as const,
    ['help', { type: 'boolean', short: 'h' }] as const,
  ]) as Record<string, { type: 'string' | 'boolean'; short?: string }>;
  const { values, positionals } = parse(argv, flagSpec, SERVE_USAGE);
  if (values.help) return null;
  if (positionals.length) throw new UsageError(`serve takes no arguments, got "${positionals[0]}"\n${SERVE_USAGE}`);
  // --board may be given once per board: the list travels as one comma-separated value, like CROWNHEAD_BOARD.
  const board = values.board as string[] | undefined;
  const flat = { ...values, board: board?.join(',') } as Record<string, string | boolean | undefined>;
  return { values: flat, config: values.config as string | undefined };
}

/** Every CROWNHEAD_* variable must be one we know: a setting's, or one of OTHER_ENV. */
function checkEnvironment(env: NodeJS.ProcessEnv): void {
  const known = new Set<string>([...KEYS.map(envName), ...Object.keys(OTHER_ENV)]);
  for (const name of Object.keys(env)) {
    if (name.startsWith('CROWNHEAD_') && !known.has(name)) {
      throw new UsageError(`unknown environment variable ${name} (known: ${[...known].join(', ')})`);
    }
  }
}

/** --config, CROWNHEAD_CONFIG, or ./crownhead.config.json if there is one. */
function findConfigFile(flag: string | undefined, env: NodeJS.ProcessEnv, cwd: string): string | null {
  const given = flag ?? env.CROWNHEAD_CONFIG;
  if (given !== undefined) return resolve(cwd, given);
  const here = resolve(cwd, 'crownhead.config.json');
  return existsSync(here) ? here : null;
}

/** The config file's settings: a JSON object whose keys are the flag names. */
function readConfigFile(configFile: string): Partial<Record<Key, Raw>> {
  let text: string;
  try {
    text = readFileSync(configFile, 'utf8');
  } catch (e) {
    throw new UsageError(
      `cannot read the config file ${configFile}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`config file ${configFile} is not valid JSON: ${(e as Error).message}`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new UsageError(`config file ${configFile} must hold a JSON object like {"board": "sim"}`);
  const config: Partial<Record<Key, Raw>> = {};
  for (const [k, v] of Object.entries(json)) {
    if (!(k in SETTINGS)) throw new UsageError(`config file ${configFile}: unknown key "${k}" (known: ${KEYS.join(', ')})`);
    const kind = SETTINGS[k as Key];
    const ok =
      kind === 'boolean'
        ? typeof v === 'boolean'
        : kind === 'number'
          ? typeof v === 'number' || typeof v === 'string'
          : typeof v === 'string' || ((k === 'ballot' || k === 'eleven-man' || k === 'round') && typeof v === 'number');
    if (!ok)
      throw new UsageError(
        `config file ${configFile}: "${k}" must be ${kind === 'boolean' ? 'true or false' : kind === 'number' ? 'a number' : 'a string'}, not ${JSON.stringify(v)}`,
      );
    config[k as Key] = { value: v as Raw['value'], from: `"${k}" in ${configFile}` };
  }
  return config;
}

/** A boolean variable: 1/0, true/false, yes/no, on/off. */
function envBoolean(name: string, text: string): boolean {
  const t = text.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(t)) return true;
  if (['0', 'false', 'no', 'off', ''].includes(t)) return false;
  throw new UsageError(`${name} must be 1/0, true/false, yes/no or on/off, not "${text}"`);
}

/** Flags over environment over the config file, each value with where it came from. */
function layer(
  flags: Record<string, string | boolean | undefined>,
  env: NodeJS.ProcessEnv,
  config: Partial<Record<Key, Raw>>,
): { raw: Partial<Record<Key, Raw>>; from: ServeSettings['from'] } {
  const raw: Partial<Record<Key, Raw>> = {};
  const from: ServeSettings['from'] = {};
  for (const k of KEYS) {
    const flag = flags[k];
    const e = env[envName(k)];
    if (flag !== undefined) {
      raw[k] = { value: flag, from: `--${k}` };
      from[k] = 'flag';
    } else if (e !== undefined) {
      raw[k] = { value: SETTINGS[k] === 'boolean' ? envBoolean(envName(k), e) : e, from: envName(k) };
      from[k] = 'env';
    } else if (config[k]) {
      raw[k] = config[k];
      from[k] = 'config';
    }
  }
  return { raw, from };
}

/** The boards: one spec, or several (repeated --board, or comma-separated), each checked. */
function checkBoards(s: Found): string[] {
  const specs = (s.str('board') ?? 'auto').split(',').map((b) => b.trim());
  for (const board of specs) {
    const read = parseBoardSpec(board);
    if (!read.ok) s.bad('board', read.error.message);
  }
  if (specs.length > 1 && specs.includes('emulator') && specs.filter((b) => b === 'emulator').length > 1)
    s.bad('board', 'only one emulated board can run at a time');
  return specs;
}

/** --sim-boards N: 0 to 64 simulated boards. */
function checkSimBoards(s: Found): number {
  if (s.raw['sim-boards'] === undefined) return 0;
  const t = String(s.raw['sim-boards'].value).trim();
  if (!/^\d+$/.test(t) || Number(t) > 64)
    s.bad('sim-boards', `the number of simulated boards must be a whole number from 0 to 64, not "${t}"`);
  return Number(t);
}

/**
 * One board as always (a single spec, or a recording asked for); else club
 * mode: several specs, simulated boards, or "auto" finding every board on USB
 * (one found is still a single board, its games where they always were).
 */
function boardOptions(s: Found, record: string | undefined): Pick<ServiceOptions, 'board' | 'club'> {
  const specs = checkBoards(s);
  const simBoards = checkSimBoards(s);
  if (record !== undefined && (specs.length > 1 || simBoards > 0))
    s.bad('record', 'recording follows one board: use it without --sim-boards or a second --board');
  if (specs.length === 1 && simBoards === 0 && (specs[0] !== 'auto' || record !== undefined)) return { board: { spec: specs[0], record } };
  const given = s.raw.board === undefined && simBoards > 0 ? [] : specs;
  return { club: { specs: given, simBoards } };
}

function checkHost(s: Found): { host: string; port: number } {
  const host = s.str('host') ?? '127.0.0.1';
  if (!host.trim() || /[\s/]/.test(host)) s.bad('host', `"${host}" is not an address to listen on`);
  let port = 8080;
  if (s.raw.port) {
    const p = String(s.raw.port.value).trim();
    if (!/^\d+$/.test(p) || Number(p) > 65535) s.bad('port', `the port must be a whole number from 0 to 65535, not "${p}"`);
    port = Number(p);
  }
  return { host, port };
}

/** A ballot setting: a number from 1 to `count`, or "random". */
function ballotOf(s: Found, k: 'ballot' | 'eleven-man', count: number, what: string): number | 'random' | undefined {
  const b = s.str(k);
  if (b === undefined) return undefined;
  if (b === 'random') return 'random';
  if (/^\d+$/.test(b) && Number(b) >= 1 && Number(b) <= count) return Number(b);
  return s.bad(k, `must be ${what} from 1 to ${count} or "random", not "${b}"`);
}

/** The first game: a FEN, a three-move or an eleven-man ballot, who moves first; never two that contradict. */
function startPosition(s: Found): StartPosition {
  const firstPlayer = s.str('first-player');
  if (firstPlayer !== undefined && !['black', 'white', 'random'].includes(firstPlayer))
    s.bad('first-player', `must be black, white or random, not "${firstPlayer}"`);
  const ballot = ballotOf(s, 'ballot', BALLOTS.length, 'a ballot number');
  const elevenMan = ballotOf(s, 'eleven-man', ELEVEN_MAN_COUNT, 'an eleven-man ballot number');
  const fen = s.str('fen');
  if (fen !== undefined) {
    const read = parseFen(fen);
    if (!read.ok) s.bad('fen', read.error.message);
  }
  if (fen !== undefined && ballot !== undefined)
    throw new UsageError(`give either a FEN (${s.from('fen')}) or a ballot (${s.from('ballot')}), not both`);
  if (elevenMan !== undefined && (fen !== undefined || ballot !== undefined))
    throw new UsageError(
      `give either an eleven-man ballot (${s.from('eleven-man')}) or a ${fen !== undefined ? `FEN (${s.from('fen')})` : `three-move ballot (${s.from('ballot')})`}, not both`,
    );
  if (elevenMan !== undefined && firstPlayer !== undefined)
    throw new UsageError(`Black moves first in an eleven-man ballot: drop ${s.from('first-player')}`);
  if (fen !== undefined && firstPlayer !== undefined) throw new UsageError(`the FEN says who moves first: drop ${s.from('first-player')}`);
  return { fen, ballot, elevenMan, crossboardOnly: s.bool('crossboard-only'), firstPlayer: firstPlayer as Color | 'random' | undefined };
}

function checkTimeControl(s: Found): string | undefined {
  const timeControl = s.str('time-control');
  if (timeControl === undefined) return undefined;
  const read = parseTimeControl(timeControl);
  if (!read.ok) s.bad('time-control', read.error.message);
  return timeControl;
}

function checkComputer(s: Found): ComputerSetting | null {
  const text = s.str('computer');
  if (text === undefined) return null;
  const read = parseComputerSetting(text);
  return read.ok ? read.value : s.bad('computer', read.error.message);
}

/** PDN tags for new games from --event, --site, --round, --black, --white. */
function tagsOf(s: Found): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const [k, tag] of [
    ['event', 'Event'],
    ['site', 'Site'],
    ['round', 'Round'],
    ['black', 'Black'],
    ['white', 'White'],
  ] as const) {
    const v = s.str(k);
    if (v === undefined) continue;
    if (v.length > 200) s.bad(k, 'at most 200 characters');
    tags[tag] = v;
  }
  return tags;
}

/** The game's settings but its tags (checked last, as ever). */
function gameSettings(s: Found): GameSettings {
  const start = startPosition(s);
  return {
    timeControl: checkTimeControl(s),
    rules: { huffing: s.bool('huffing'), crownContinue: s.bool('crown-continue'), autoDraw: s.bool('auto-draw') },
    tournament: s.bool('tournament'),
    computer: checkComputer(s),
    start,
  };
}

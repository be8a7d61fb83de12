// `crownhead hub`: club mode whose boards are stations (src/stations/hub.ts):
// an embedded MQTT broker (aedes) by default, or an existing one; the pairing
// secret kept in the games folder (made on the first start) and printed for
// the stations; serve's flags for the pages, the games and the tags.

import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { resolveServeSettings } from './serve-settings.ts';
import { HUB_USAGE } from './usage.ts';
import { UsageError } from './args.ts';
import { checkBrokerUrl, checkMqttVersion, checkPort, takeFlags } from './station-flags.ts';
import { untilSignal } from './station.ts';
import type { Io } from './io.ts';

const HELP = `${HUB_USAGE}

Runs club mode (the board list, /arbiter, /watch, /broadcast.pdn, the
tournament) whose boards are stations: each "crownhead station" reports its
board to the broker, and the hub follows every game move by move, keeping its
own copy in the games folder.

Broker
  --mqtt embedded|mqtt://HOST:PORT   the hub's own broker (default), or one to use
                           (Mosquitto)
  --mqtt-port N            the embedded broker's port (default 1883; 0 picks a free one)
  --mqtt-host ADDR         the embedded broker's address (default 0.0.0.0: stations on
                           other machines reach it)
  --mqtt-user NAME, --mqtt-password PASSWORD   the login: asked of stations by the
                           embedded broker, given to the broker otherwise
  --mqtt-version 3.1.1|5   (default 3.1.1; the embedded broker speaks 3.1.1 only)
  --secret SECRET          the pairing secret (default: made on the first start, kept
                           in GAMES/hub.secret); stations give it as --hub-secret

Every other flag is serve's (crownhead serve --help): --host, --port, --games,
--public-watch, --event, --round … (not --board: the boards are the stations).`;

/** The pairing secret: given, or kept in the games folder (made once). */
function pairingSecret(given: string | undefined, gamesDir: string): string {
  if (given !== undefined) {
    if (given.length < 8) throw new UsageError('--secret: at least 8 characters');
    return given;
  }
  const file = join(gamesDir, 'hub.secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(gamesDir, { recursive: true });
  const secret = randomBytes(18).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

export async function hubCommand(argv: string[], io: Io): Promise<number> {
  const names = ['mqtt', 'mqtt-port', 'mqtt-host', 'mqtt-user', 'mqtt-password', 'mqtt-version', 'secret'];
  const { taken, rest } = takeFlags(argv, names, HUB_USAGE);
  if (rest.some((a) => a === '--board' || a.startsWith('--board=') || a.startsWith('--sim-boards')))
    throw new UsageError(`a hub's boards are its stations: run "crownhead station --board …" for each\n${HUB_USAGE}`);
  const settings = resolveServeSettings([...rest, '--board', 'sim']);
  if (!settings) {
    io.out(HELP);
    return 0;
  }
  const mode = taken.mqtt ?? 'embedded';
  const external = mode === 'embedded' ? null : checkBrokerUrl('mqtt', mode);
  if (external && (taken['mqtt-port'] || taken['mqtt-host']))
    throw new UsageError('--mqtt-port and --mqtt-host are the embedded broker’s: not with --mqtt URL');
  const protocolVersion = checkMqttVersion(taken['mqtt-version']);
  if (!external && protocolVersion === 5)
    throw new UsageError('--mqtt-version 5: the embedded broker speaks MQTT 3.1.1 only (use Mosquitto)');
  const port = taken['mqtt-port'] !== undefined ? checkPort('mqtt-port', taken['mqtt-port']) : 1883;
  const logger = pino({ level: settings.logLevel }, pino.destination({ dest: 1, sync: true }));
  const { board: _board, club: _club, ...service } = settings.options;
  const secret = pairingSecret(taken.secret, service.storage.gamesDir);
  const { startEmbeddedBroker } = await import('../stations/broker.ts');
  const { Hub } = await import('../stations/hub.ts');
  const login = { username: taken['mqtt-user'], password: taken['mqtt-password'] };
  let broker: Awaited<ReturnType<typeof startEmbeddedBroker>> | null = null;
  try {
    broker = external ? null : await startEmbeddedBroker({ port, host: taken['mqtt-host'] ?? '0.0.0.0', ...login });
    const url = external ?? broker!.url;
    const say = `Stations: crownhead station --board … --hub mqtt://THIS-MACHINE:${broker?.port ?? new URL(url).port} --hub-secret ${secret}`;
    logger.info({ mqtt: url }, `the hub's broker: ${url}${broker ? ' (embedded)' : ''}`);
    process.stderr.write(`Crownhead hub: broker ${url}\n${say}\n`);
    const startedHub = Hub.start({ mqtt: { url, ...login, protocolVersion }, secret, service: { ...service, log: { logger } } });
    const hub = await startedHub;
    const s = hub.service!;
    process.stderr.write(`Crownhead hub is ready: ${s.url}watch (spectators), ${s.url}arbiter (arbiter), ${s.url}api/boards\n`);
    logger.info({ url: s.url }, `Crownhead hub is ready: ${s.url}`);
    return await untilSignal(async () => {
      await hub.close();
      await broker?.close();
    });
  } catch (e) {
    await broker?.close();
    io.err(`crownhead hub: cannot start: ${(e as Error).message}`);
    return 1;
  }
}

// `crownhead station`: one board as `serve` runs it (the same flags: its
// tracking, journal and page), publishing its board to a hub's broker
// (src/stations/station.ts) and taking the hub's signed commands.

import { readFileSync } from 'node:fs';
import { pino } from 'pino';
import { resolveServeSettings } from './serve-settings.ts';
import { STATION_USAGE } from './usage.ts';
import { UsageError } from './args.ts';
import { checkBrokerUrl, checkMqttVersion, takeFlags } from './station-flags.ts';
import type { Io } from './io.ts';

const HELP = `${STATION_USAGE}

Runs one board as "crownhead serve" does (its page, its journal: the games are
saved here first) and reports it to a hub over MQTT: its status, every move of
every game, alerts and clocks. After a disconnect it sends again everything
the hub has not acknowledged. It speaks with its own key (made on the first
start, kept in the games folder as station-key.pem) and pairs with the hub
once, with the pairing secret; from then on it runs only commands sealed by
that hub. A board another station already reports is refused, naming both.

Hub
  --hub mqtt://HOST:PORT   the hub's broker (crownhead hub prints it; or Mosquitto's)
  --hub-secret SECRET      the pairing secret (crownhead hub prints it): proves this
                           station may join, and that the hub answering is this hub
  --hub-ca FILE            mqtts://: the CA (PEM) that signed the broker's certificate
                           (the hub's own certificate when it made it itself)
  --hub-user NAME, --hub-password PASSWORD   a broker login of your own (default: user
                           the board id, the password the pairing secret gives — what
                           the hub's broker and its mosquitto-config files expect)
  --mqtt-version 3.1.1|5   (default 3.1.1; 5 adds a session expiry of one day)

A game between two boards far apart (both stations on one broker, one secret;
each pins the other's key the first time it sees its claim)
  --opponent BOARD_ID      the other station's board: its player's moves are shown
                           here, by name, to carry out on this board
  --opponent-side SIDE     the side the far player takes (black or white)

Every other flag is serve's (crownhead serve --help): --board, --port, --games …`;

export async function stationCommand(argv: string[], io: Io): Promise<number> {
  const { taken, rest } = takeFlags(
    argv,
    ['hub', 'hub-secret', 'hub-ca', 'hub-user', 'hub-password', 'mqtt-version', 'opponent', 'opponent-side'],
    STATION_USAGE,
  );
  const settings = resolveServeSettings(rest);
  if (!settings) {
    io.out(HELP);
    return 0;
  }
  if (!taken.hub) throw new UsageError(`--hub is needed: the hub's broker, e.g. --hub mqtt://192.168.1.10:1883\n${STATION_USAGE}`);
  if (!taken['hub-secret'])
    throw new UsageError(`--hub-secret is needed: the pairing secret crownhead hub prints at start\n${STATION_USAGE}`);
  if (settings.options.club) throw new UsageError('a station runs one board: give --board once, without --sim-boards');
  const url = checkBrokerUrl('hub', taken.hub);
  const protocolVersion = checkMqttVersion(taken['mqtt-version']);
  let ca: Buffer | undefined;
  if (taken['hub-ca'] !== undefined) {
    if (!url.startsWith('mqtts:') && !url.startsWith('wss:')) throw new UsageError(`--hub-ca is for mqtts:// (the hub is ${url})`);
    try {
      ca = readFileSync(taken['hub-ca']);
    } catch (e) {
      throw new UsageError(`--hub-ca: cannot read ${taken['hub-ca']}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  }
  const side = taken['opponent-side'];
  if ((taken.opponent === undefined) !== (side === undefined))
    throw new UsageError('--opponent and --opponent-side go together: the far board, and the side its player takes');
  if (side !== undefined && side !== 'black' && side !== 'white')
    throw new UsageError(`--opponent-side: "${side}" is not a side (black or white)`);
  const opponent = taken.opponent && side ? { board: taken.opponent, side: side as 'black' | 'white' } : undefined;
  const logger = pino({ level: settings.logLevel }, pino.destination({ dest: 1, sync: true }));
  const { startStation } = await import('../stations/station.ts');
  let station: Awaited<ReturnType<typeof startStation>>;
  try {
    station = await startStation({
      mqtt: { url, username: taken['hub-user'], password: taken['hub-password'], protocolVersion, ...(ca ? { ca } : {}) },
      secret: taken['hub-secret'],
      opponent,
      service: { ...settings.options, log: { logger } },
    });
  } catch (e) {
    io.err(`crownhead station: cannot start: ${(e as Error).message}`);
    return 1;
  }
  const board = station.service.board.identity.id;
  station.client.on('connect', () => logger.info({ hub: url, board }, `reporting board ${board} to the hub at ${url}`));
  logger.info({ url: station.service.url }, `Crownhead station is ready: board ${board}, its page at ${station.service.url}`);
  process.stderr.write(
    `Crownhead station: board ${board} (key ${station.publisher.identity.fingerprint}), page ${station.service.url}, hub ${url}\n`,
  );
  // Another station holds this board: said once, and this one stops (never a reconnect loop).
  const refused = new Promise<number>((resolveExit) =>
    station.publisher.onRefused((e) => {
      io.err(`crownhead station: ${e.message}`);
      void station.close().then(
        () => resolveExit(1),
        () => resolveExit(1),
      );
    }),
  );
  return Promise.race([untilSignal(() => station.close()), refused]);
}

/** Runs until SIGINT/SIGTERM, then stops (a second signal exits at once). */
export function untilSignal(close: () => Promise<void>): Promise<number> {
  return new Promise<number>((resolveExit) => {
    const stop = () => {
      process.once('SIGINT', () => process.exit(130));
      process.once('SIGTERM', () => process.exit(130));
      setTimeout(() => process.exit(1), 5000).unref(); // a stop that takes too long: exit
      close().then(
        () => resolveExit(0),
        () => resolveExit(1),
      );
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

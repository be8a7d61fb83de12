// `crownhead hub`: club mode whose boards are stations (src/stations/hub.ts):
// an embedded MQTT broker (aedes) by default — locked down: logins from the
// pairing secret, each station confined to its topics, TLS when given a
// certificate — or an existing one; the pairing secret kept in the games
// folder (made on the first start) and printed for the stations; serve's
// flags for the pages, the games and the tags. `crownhead hub
// mosquitto-config DIR` writes Mosquitto's password and ACL files with the
// same rules.

import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
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
                           other machines reach it). It lets in only the hub and the
                           stations, with logins the pairing secret gives (user: the
                           board id), each station to its own board's topics only
  --mqtt-tls-cert FILE, --mqtt-tls-key FILE   serve mqtts:// with this certificate
                           and key (PEM); stations then give --hub-ca CA-FILE
  --mqtt-tls self-signed   serve mqtts:// with a certificate the hub makes once (openssl)
                           and keeps in GAMES/mqtt-tls/; copy its cert.pem to each station
                           and give it as --hub-ca: the stations trust that one certificate
  --mqtt-ca FILE           mqtts:// on an external broker: the CA (PEM) that signed its
                           certificate
  --mqtt-user NAME, --mqtt-password PASSWORD   the hub's login on an external broker
                           (default: user crownhead-hub, the password the secret gives)
  --mqtt-version 3.1.1|5   (default 3.1.1; the embedded broker speaks 3.1.1 only)
  --secret SECRET          the pairing secret (default: made on the first start, kept
                           in GAMES/hub.secret); stations give it as --hub-secret

Mosquitto instead of the embedded broker
  crownhead hub mosquitto-config DIR --boards NORTH,SOUTH [--games DIR | --secret S]
                           writes DIR/crownhead.passwd and DIR/crownhead.acl: the hub's
                           and each board's login (from the pairing secret) and the
                           same topic rules; mosquitto.conf then needs
                             password_file DIR/crownhead.passwd
                             acl_file DIR/crownhead.acl

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

/** Reads a PEM file a flag names, or says which flag and why not. */
function readPem(flag: string, file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (e) {
    throw new UsageError(`--${flag}: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** `crownhead hub mosquitto-config DIR --boards A,B`: Mosquitto's password and ACL files for this hub's secret. */
function mosquittoConfig(argv: string[], io: Io): Promise<number> | number {
  const { taken, rest } = takeFlags(argv, ['boards', 'secret', 'games'], HUB_USAGE);
  const dir = rest.find((a) => !a.startsWith('--'));
  const stray = rest.filter((a) => a !== dir);
  if (!dir) throw new UsageError('crownhead hub mosquitto-config DIR --boards NORTH,SOUTH: the folder to write the files in');
  if (stray.length) throw new UsageError(`mosquitto-config: "${stray[0]}" is not one of its flags (--boards, --secret, --games)`);
  const boards = (taken.boards ?? '')
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean);
  if (!boards.length) throw new UsageError('--boards: the board ids of the stations, comma-separated (e.g. NORTH,SOUTH)');
  for (const b of boards)
    if (!/^[A-Za-z0-9_-]{1,16}$/.test(b) || b === 'crownhead-hub')
      throw new UsageError(`--boards: "${b}" is not a board id (1–16 of A–Z a–z 0–9 _ -)`);
  const secret = pairingSecret(taken.secret, resolve(taken.games ?? 'games'));
  return import('../stations/access.ts').then(({ mosquittoFiles }) => {
    const files = mosquittoFiles(secret, boards);
    mkdirSync(dir, { recursive: true });
    const passwd = resolve(dir, 'crownhead.passwd');
    const acl = resolve(dir, 'crownhead.acl');
    writeFileSync(passwd, files.passwd, { mode: 0o600 });
    chmodSync(passwd, 0o600);
    writeFileSync(acl, files.acl);
    io.out(`Wrote ${passwd} (logins: crownhead-hub, ${boards.join(', ')}) and ${acl}.`);
    io.out(`In mosquitto.conf:\n  password_file ${passwd}\n  acl_file ${acl}\n  allow_anonymous false\n  max_packet_size 131072`);
    io.out('(Mosquitto must be able to read the password file: chown it to the mosquitto user if it runs as one.)');
    return 0;
  });
}

export async function hubCommand(argv: string[], io: Io): Promise<number> {
  if (argv[0] === 'mosquitto-config') return mosquittoConfig(argv.slice(1), io);
  const names = [
    'mqtt',
    'mqtt-port',
    'mqtt-host',
    'mqtt-user',
    'mqtt-password',
    'mqtt-version',
    'mqtt-tls-cert',
    'mqtt-tls-key',
    'mqtt-tls',
    'mqtt-ca',
    'secret',
  ];
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
  const embeddedOnly = ['mqtt-port', 'mqtt-host', 'mqtt-tls-cert', 'mqtt-tls-key', 'mqtt-tls'].filter((f) => taken[f] !== undefined);
  if (external && embeddedOnly.length) throw new UsageError(`--${embeddedOnly[0]} is the embedded broker’s: not with --mqtt URL`);
  if (!external && taken['mqtt-ca'] !== undefined) throw new UsageError('--mqtt-ca is for an external broker (--mqtt mqtts://…)');
  if (!external && (taken['mqtt-user'] !== undefined || taken['mqtt-password'] !== undefined))
    throw new UsageError(
      '--mqtt-user and --mqtt-password are the hub’s login on an external broker: the embedded one derives every login from the pairing secret',
    );
  if ((taken['mqtt-tls-cert'] === undefined) !== (taken['mqtt-tls-key'] === undefined))
    throw new UsageError('--mqtt-tls-cert and --mqtt-tls-key go together: the certificate and its key');
  if (taken['mqtt-tls'] !== undefined && taken['mqtt-tls'] !== 'self-signed')
    throw new UsageError(`--mqtt-tls: "${taken['mqtt-tls']}" is not a choice (self-signed; or give --mqtt-tls-cert and --mqtt-tls-key)`);
  if (taken['mqtt-tls'] !== undefined && taken['mqtt-tls-cert'] !== undefined)
    throw new UsageError('--mqtt-tls self-signed or --mqtt-tls-cert/--mqtt-tls-key: one certificate, not both');
  const own = taken['mqtt-tls'] ? (await import('../stations/self-signed.ts')).selfSigned(settings.options.storage.gamesDir) : null;
  const tls = taken['mqtt-tls-cert']
    ? { cert: readPem('mqtt-tls-cert', taken['mqtt-tls-cert']), key: readPem('mqtt-tls-key', taken['mqtt-tls-key']!) }
    : (own ?? undefined);
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
    broker = external ? null : await startEmbeddedBroker({ port, host: taken['mqtt-host'] ?? '0.0.0.0', secret, tls });
    const url = external ?? broker!.url;
    const scheme = tls ? 'mqtts' : 'mqtt';
    const say = `Stations: crownhead station --board … --hub ${scheme}://THIS-MACHINE:${broker?.port ?? new URL(url).port} --hub-secret ${secret}${tls ? ` --hub-ca ${own ? own.certFile : 'CA-FILE'}` : ''}${own ? `\n(the broker's certificate, SHA-256 ${own.fingerprint}: copy ${own.certFile} to each station)` : ''}`;
    logger.info({ mqtt: url }, `the hub's broker: ${url}${broker ? ' (embedded, logins from the pairing secret)' : ''}`);
    process.stderr.write(`Crownhead hub: broker ${url}\n${say}\n`);
    // (The hub's own link to its embedded broker, in this process over loopback: the certificate names the machine, not 127.0.0.1.)
    const ca = tls ? { rejectUnauthorized: false } : taken['mqtt-ca'] ? { ca: readPem('mqtt-ca', taken['mqtt-ca']) } : {};
    const startedHub = Hub.start({ mqtt: { url, ...login, protocolVersion, ...ca }, secret, service: { ...service, log: { logger } } });
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

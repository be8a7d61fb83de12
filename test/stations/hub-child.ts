// A hub in a child process, for the kill -9 test (mosquitto.test.ts): follows
// the broker at argv[2] with its games in argv[3], prints one JSON line once
// it serves ({"url": …}), and one per mirrored board state change.

import { Hub } from '../../src/stations/hub.ts';
import { SECRET } from './fixture.ts';

const [url, dir] = process.argv.slice(2) as [string, string];
const hub = await Hub.start({
  mqtt: { url, reconnectMs: 100, clientId: 'crownhead-hub-child' },
  secret: SECRET,
  retryMs: 300,
  service: { storage: { gamesDir: dir }, http: { port: 0 }, log: { level: 'silent' } },
});
process.stdout.write(JSON.stringify({ url: hub.service!.url }) + '\n');

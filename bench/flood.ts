// Floods against the hub (issue: trust across machines): one station and a hub
// on the embedded broker (its loopback default, no logins: the worst case, as
// an anonymous Mosquitto), and a client with no key sending, as fast as the
// broker takes them, each kind of junk in turn — plain forged records,
// records sealed with a key nobody paired, copies of the station's real
// records, status for made-up boards, claims with a guessed secret. Meanwhile
// a page-side client asks GET /api/info every 10 ms: the figures are how long
// the hub took to answer (median, p99, max) during each flood beside the same
// with no flood, the flood's rate, and that the hub's copy still equals the
// station's afterwards. Run: node bin/run-ts.js bench/flood.ts [--messages 30000]

import mqtt from 'mqtt';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedBroker } from '../src/stations/broker.ts';
import { startStation } from '../src/stations/station.ts';
import { Hub } from '../src/stations/hub.ts';
import { SimBoard } from '../src/sensors/sim/board.ts';
import { boardTopic } from '../src/stations/topics.ts';
import { sealMessage } from '../src/stations/messages.ts';
import { ephemeralIdentity } from '../src/stations/identity.ts';
import { pairProof } from '../src/stations/pairing.ts';
import { RandomHand, handTable } from '../test/harness/table.ts';
import { readPdn } from '../src/pdn/index.ts';
import { readFileSync } from 'node:fs';
import { CORPUS } from '../test/harness/corpus.ts';

const arg = (name: string, def: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : def;
};
const N = Number(arg('messages', '30000'));
const SECRET = 'bench-pairing-secret';
const dir = mkdtempSync(join(tmpdir(), 'crownhead-flood-'));

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

/** Asks /api/info every 10 ms while `work` runs; the answer times, ms. */
async function probe(url: string, work: () => Promise<void>): Promise<number[]> {
  const times: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const t0 = performance.now();
      await (await fetch(url)).arrayBuffer();
      times.push(performance.now() - t0);
      await sleep(10);
    }
  })();
  await work();
  running = false;
  await loop;
  return times;
}

async function main(): Promise<void> {
  const broker = await startEmbeddedBroker({ port: 0 });
  const sim = new SimBoard({ clock: 'manual', seed: 5, id: 'FLOOD' });
  const station = await startStation({
    mqtt: { url: broker.url, reconnectMs: 100 },
    secret: SECRET,
    service: { board: { source: sim }, storage: { gamesDir: join(dir, 'st') }, http: { port: 0 }, log: { level: 'silent' } },
  });
  const hub = await Hub.start({
    mqtt: { url: broker.url, reconnectMs: 100 },
    secret: SECRET,
    service: { storage: { gamesDir: join(dir, 'hub') }, http: { port: 0 }, log: { level: 'silent' } },
  });
  const same = () => hub.room('FLOOD')?.session.pdn() === station.service.session.pdn();
  while (!hub.room('FLOOD')) await sleep(20);
  const game = readPdn(readFileSync(join(CORPUS, 'OCA_2.0.pdn'), 'utf8')).games[3]!;
  const hand = new RandomHand(handTable(sim, station.service.session), 5);
  sim.setupStart();
  sim.advance(700);
  for (const n of game.moves.slice(0, 10)) {
    hand.playMove(n.move);
    sim.advance(800);
  }
  while (!same()) await sleep(20);

  const evil = await mqtt.connectAsync(broker.url, { clientId: 'flood', clean: true });
  const real: Buffer[] = [];
  evil.on('message', (_t, p) => real.push(Buffer.from(p)));
  await evil.subscribeAsync(boardTopic('FLOOD', 'entries'), { qos: 1 });
  hand.playMove(game.moves[10]!.move);
  sim.advance(800);
  while (real.length === 0 || !same()) await sleep(20);
  await evil.unsubscribeAsync(boardTopic('FLOOD', 'entries')); // (the floods below would echo back)
  const copies = [...real];

  const mallory = ephemeralIdentity();
  const forged = JSON.stringify({ v: 1, gameId: 'G', seq: 99, entry: { k: 'result', at: 1, result: '0-1', outcome: null } });
  const floods: [string, (i: number) => { topic: string; payload: string | Buffer }][] = [
    ['plain forged records', () => ({ topic: boardTopic('FLOOD', 'entries'), payload: forged })],
    ['records sealed by an unpaired key', (i) => sealMessage('FLOOD', 'entries', JSON.parse(forged), mallory, i + 1)],
    ['copies of real records', (i) => ({ topic: boardTopic('FLOOD', 'entries'), payload: copies[i % copies.length]! })],
    [
      'status for made-up boards',
      (i) => sealMessage(`GHOST-${i}`, 'status', { v: 1, board: `GHOST-${i}`, online: true, description: 'x', at: 1 }, mallory, i + 1),
    ],
    [
      'claims with a guessed secret',
      (i) =>
        sealMessage(
          'FLOOD',
          'pair',
          { v: 1, board: 'FLOOD', key: mallory.key, since: i, proof: pairProof('guess', 'FLOOD', mallory.key) },
          mallory,
          i + 1,
        ),
    ],
  ];
  const info = hub.service!.url + 'api/info';
  const quiet = await probe(info, () => sleep(1500));
  console.log(
    `hub /api/info with no flood: median ${pct(quiet, 50).toFixed(1)} ms, p99 ${pct(quiet, 99).toFixed(1)} ms, max ${Math.max(...quiet).toFixed(1)} ms (${quiet.length} asks)`,
  );
  for (const [name, make] of floods) {
    const before = hub.refused;
    const dup = () => hub.boards.get('FLOOD')!.mirror!.seq.stats.duplicates;
    const dup0 = dup();
    const cpu0 = process.cpuUsage();
    let seconds = 0;
    const times = await probe(info, async () => {
      const t0 = performance.now();
      for (let i = 0; i < N; i++) {
        const m = make(i);
        evil.publish(m.topic, m.payload, { qos: 0 });
        if (i % 500 === 499) await new Promise<void>((r) => setImmediate(r));
      }
      await evil.publishAsync('crownhead/v1/boards/FLOOD/alerts', 'end', { qos: 1 });
      // Until the hub has read them all (every kind is counted as refused but copies of real records: duplicates, or over the allowance).
      const until = Date.now() + 60_000;
      while (Date.now() < until && hub.refused - before + dup() - dup0 < N) await sleep(20);
      await sleep(200);
      seconds = (performance.now() - t0) / 1000;
    });
    const cpu = process.cpuUsage(cpu0);
    console.log(
      `${name.padEnd(36)} ${N} in ${seconds.toFixed(1)} s (${Math.round(N / seconds)}/s): /api/info median ${pct(times, 50).toFixed(1)} ms, p99 ${pct(times, 99).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms; process CPU ${(((cpu.user + cpu.system) / 1e6 / seconds) * 100).toFixed(0)}% of a core; refused ${hub.refused - before}; boards ${hub.boards.size}`,
    );
  }
  hand.playMove(game.moves[11]!.move);
  sim.advance(800);
  const end = Date.now() + 30_000;
  while (!same() && Date.now() < end) await sleep(20);
  console.log(
    `afterwards the hub's copy ${same() ? 'equals' : 'DIFFERS FROM'} the station's (${station.service.session.game.plies.length} plies); ${hub.boards.size} board(s)`,
  );
  console.log(
    '(hub, station, broker and flooding client share this one process: the figures are an upper bound on what the hub alone sees)',
  );
  await evil.endAsync();
  await hub.close();
  await station.close();
  await broker.close();
  rmSync(dir, { recursive: true, force: true });
}

await main();

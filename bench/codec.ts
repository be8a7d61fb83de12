// Sensors bench: how fast the wire codec parses frame lines (the board sends
// 100 per second), and how fast the simulated board produces frames on its
// manual clock (format → parse → physics). Run: node bin/run-ts.js bench/codec.ts
import { unwrap } from '../src/common/result.ts';
import { SimBoard, makeBoardLine, parseBoardLine } from '../src/sensors/index.ts';

function rate(label: string, run: (n: number) => void, n: number): number {
  run(Math.min(n, 20_000)); // warm up
  const t0 = performance.now();
  run(n);
  const perSec = n / ((performance.now() - t0) / 1000);
  console.log(`${label}: ${Math.round(perSec).toLocaleString('en-US')} frames/s`);
  return perSec;
}

const lines = Array.from({ length: 1024 }, (_, i) =>
  makeBoardLine({ type: 'frame', seq: i, readings: Uint16Array.from({ length: 32 }, (_, k) => (i * 7 + k * 31) % 1024) }),
);
let sink = 0;

rate(
  'codec parse rate',
  (n) => {
    for (let i = 0; i < n; i++) {
      const r = parseBoardLine(lines[i & 1023]);
      if (r.ok && r.value.type === 'frame') sink += r.value.readings[5];
    }
  },
  1_000_000,
);

const msgs = lines.map((l) => unwrap(parseBoardLine(l)));
rate(
  'codec format rate',
  (n) => {
    for (let i = 0; i < n; i++) sink += makeBoardLine(msgs[i & 1023] as never).length;
  },
  500_000,
);

const sim = new SimBoard({ seed: 1, startPosition: true });
sim.onFrame((f) => (sink += f.readings[0]));
await sim.open();
rate('sim frame rate (manual clock)', (n) => void sim.advance(n * 10), 200_000);
await sim.close();

if (sink === 42) console.log(''); // keep the work observable

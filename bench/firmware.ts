// Firmware benchmark on the emulated board: builds firmware + libsimavr
// harness, runs it for a few simulated seconds and prints the full-board scan
// rate and the frame rate, both per *simulated* second (so a slow host does
// not change them), plus flash/RAM use of the ELF.
// Run: node bin/run-ts.js bench/firmware.ts [wall seconds, default 4]
import { spawnSync } from 'node:child_process';
import { buildEmulator, EmulatedBoard, elfPath, parseFrame } from '../test/harness/emu.ts';

const seconds = Number(process.argv[2] ?? 4);
buildEmulator();

const board = new EmulatedBoard();
await board.start();
await board.control('START');
await board.frameAfter(150); // warm up 1.5 s: past the boot-time scan-rate window (no frames yet then)

const identity = board.waitFor((b) => b.startsWith('I '));
board.send('?');
const scanField = /scan=(\d+)/.exec(await identity)?.[1];

const s0 = await board.stats();
const from = board.lines.length;
await new Promise((r) => setTimeout(r, seconds * 1000));
const s1 = await board.stats();
const frames = board.lines
  .slice(from)
  .map(parseFrame)
  .filter((f) => f !== null);

// the same with almost no serial traffic (RATE 1): the scan rate the CPU allows
const ok = board.waitFor((b) => b.startsWith('OK RATE'));
board.send('RATE 1');
await ok;
await new Promise((r) => setTimeout(r, 600));
const q0 = await board.stats();
await new Promise((r) => setTimeout(r, seconds * 1000));
const q1 = await board.stats();
await board.stop();

const simS = (s1.simms - s0.simms) / 1000;
const wallS = seconds;
console.log(`firmware scan rate (emulated): ${Math.round((s1.scans - s0.scans) / simS)} scans/s`);
console.log(`firmware scan rate at RATE 1 (emulated): ${Math.round((q1.scans - q0.scans) / ((q1.simms - q0.simms) / 1000))} scans/s`);
console.log(`firmware frame rate (emulated): ${(frames.length / simS).toFixed(1)} frames/s`);
console.log(`firmware scan rate (reported by the board, scan=): ${scanField} scans/s`);
console.log(`firmware ADC conversions (emulated): ${Math.round((s1.adc - s0.adc) / simS)} /s`);
console.log(`emulator speed: ${(simS / wallS).toFixed(2)}x real time (${simS.toFixed(2)} simulated s in ${wallS} s)`);

const size = spawnSync('avr-size', ['-A', elfPath], { encoding: 'utf8' });
const sec = (name: string) => Number(new RegExp(`^\\${name}\\s+(\\d+)`, 'm').exec(size.stdout ?? '')?.[1] ?? 0);
const flash = sec('.text') + sec('.data');
const ram = sec('.data') + sec('.bss');
console.log(`firmware flash: ${flash} bytes of 32256 (${((100 * flash) / 32256).toFixed(1)} %)`);
console.log(`firmware static RAM: ${ram} bytes of 2048 (${((100 * ram) / 2048).toFixed(1)} %)`);

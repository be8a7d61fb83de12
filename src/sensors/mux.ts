// How the firmware reaches the 32 sensors: two 16-channel multiplexers sharing
// four select lines S0–S3 (Arduino pins D2–D5, hardware/pinmap.json); square s
// is channel (s − 1) mod 16 of mux ⌊(s − 1)/16⌋. And what a wiring fault on the
// select lines does to that: two lines swapped, one line stuck high or low
// (broken, or shorted to a rail), two lines shorted together (the one driven
// low wins: the pair reads as their AND). Each fault is a function from the
// channel the firmware selects to the channel the mux connects; the emulator
// applies it and `crownhead doctor` finds which one explains what it saw.
// Also the channels' names as on the breakouts (mux 0 C4) and the firmware's
// scan order on one mux (which channel is read just before or after a square:
// an open input or a short settle time carries that one's level). Pure.

export const MUX_CHANNELS = 16;
export const SELECT_LINES = 4;
/** Arduino pins of S0–S3 (hardware/pinmap.json muxSelectPins; test/sensors/mux.test.ts checks). */
export const SELECT_PINS = [2, 3, 4, 5] as const;

export const muxOf = (square: number): number => Math.floor((square - 1) / MUX_CHANNELS);
export const channelOf = (square: number): number => (square - 1) % MUX_CHANNELS;
export const squareAt = (mux: number, channel: number): number => mux * MUX_CHANNELS + channel + 1;

/** A square's mux input as a builder finds it on the breakout: "mux 0 C4" (hardware/WIRING.md). */
export const channelName = (square: number): string => `mux ${muxOf(square)} C${channelOf(square)}`;

/**
 * The square read on the same mux just before `square` (the scanner steps
 * every mux through channels 0–15 in turn: channel 0's predecessor is channel
 * 15, read at the end of the scan before).
 */
export const readBefore = (square: number): number => squareAt(muxOf(square), (channelOf(square) + MUX_CHANNELS - 1) % MUX_CHANNELS);
/** The square read on the same mux just after `square`. */
export const readAfter = (square: number): number => squareAt(muxOf(square), (channelOf(square) + 1) % MUX_CHANNELS);

export type SelectFault =
  { kind: 'swap'; lines: [number, number] } | { kind: 'stuck'; line: number; level: 0 | 1 } | { kind: 'short'; lines: [number, number] };

const bit = (c: number, i: number): number => (c >> i) & 1;
const withBit = (c: number, i: number, v: number): number => (v ? c | (1 << i) : c & ~(1 << i));

/** The channel the mux connects when the firmware selects `channel`, with this fault. */
export function connected(fault: SelectFault | null, channel: number): number {
  if (!fault) return channel;
  switch (fault.kind) {
    case 'swap': {
      const [i, j] = fault.lines;
      return withBit(withBit(channel, i, bit(channel, j)), j, bit(channel, i));
    }
    case 'stuck':
      return withBit(channel, fault.line, fault.level);
    case 'short': {
      const [i, j] = fault.lines;
      const v = bit(channel, i) & bit(channel, j);
      return withBit(withBit(channel, i, v), j, v);
    }
  }
}

/** The square whose sensor the firmware reads when it reads `square`. */
export function sensorRead(fault: SelectFault | null, square: number): number {
  return squareAt(muxOf(square), connected(fault, channelOf(square)));
}

/** Every single select-line fault, in the order the doctor tries them. */
export function selectFaults(): SelectFault[] {
  const out: SelectFault[] = [];
  for (let i = 0; i < SELECT_LINES; i++) for (let j = i + 1; j < SELECT_LINES; j++) out.push({ kind: 'swap', lines: [i, j] });
  for (let i = 0; i < SELECT_LINES; i++) for (const level of [0, 1] as const) out.push({ kind: 'stuck', line: i, level });
  for (let i = 0; i < SELECT_LINES; i++) for (let j = i + 1; j < SELECT_LINES; j++) out.push({ kind: 'short', lines: [i, j] });
  return out;
}

/** A sentence for a builder: what is wrong and which pins to look at. */
export function describeSelectFault(f: SelectFault): string {
  const pin = (i: number) => `S${i} (pin D${SELECT_PINS[i]})`;
  switch (f.kind) {
    case 'swap':
      return `select lines ${pin(f.lines[0])} and ${pin(f.lines[1])} are swapped: exchange the two wires`;
    case 'stuck':
      return `select line ${pin(f.line)} is stuck ${f.level ? 'high' : 'low'}: a broken wire or a short to ${f.level ? '5 V' : 'ground'}`;
    case 'short':
      return `select lines ${pin(f.lines[0])} and ${pin(f.lines[1])} are shorted together: look for a solder bridge`;
  }
}

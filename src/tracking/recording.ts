// Session recordings: the raw frame stream of a board, with its time stamps,
// as a plain appendable text file, so a session can be replayed through
// tracking exactly (bug reports from real hardware; tests pinning real
// sessions). Format, version 1, one item per line:
//
//   # crownhead recording 1                      first line
//   {"header":{...}}                             board identity, start time
//   <t> F <seq> <readings>*<cs>                  a frame: frame time in ms, then the
//                                                protocol line exactly as the firmware sends it
//   {"t":<ms>,"event":"new-game",...}            things that happened beside the frames:
//   {"t":<ms>,"event":"board","connected":false}   new games (start FEN, options), board lost/back
//
// Lines starting with `#` are comments. Readers skip a torn last line.

import { makeBoardLine, parseBoardLine } from '../sensors/protocol.ts';
import type { GameOptions } from '../rules/index.ts';
import { CrownheadError } from '../common/errors.ts';

export const RECORDING_MAGIC = '# crownhead recording 1';

export type RecordingItem =
  | { kind: 'header'; header: Record<string, unknown> }
  | { kind: 'frame'; t: number; seq: number; readings: Uint16Array }
  | { kind: 'new-game'; t: number; fen: string; options: GameOptions }
  | { kind: 'board'; t: number; connected: boolean };

/** A recording that cannot be read; the message names the line. */
export class RecordingError extends CrownheadError<'bad-recording'> {
  override readonly name = 'RecordingError';
  constructor(message: string) {
    super('bad-recording', message);
  }
}

export function recordingHeader(header: Record<string, unknown>): string {
  return `${RECORDING_MAGIC}\n${JSON.stringify({ header })}\n`;
}

export function recordFrame(t: number, seq: number, readings: Uint16Array): string {
  return `${t.toFixed(2)} ${makeBoardLine({ type: 'frame', seq: seq & 0xffff, readings })}\n`;
}

export function recordEvent(t: number, event: 'new-game', data: { fen: string; options: GameOptions }): string;
export function recordEvent(t: number, event: 'board', data: { connected: boolean }): string;
export function recordEvent(t: number, event: string, data: object): string {
  return JSON.stringify({ t: Math.round(t * 100) / 100, event, ...data }) + '\n';
}

/** Reads a recording; malformed lines are errors naming the line (a torn last line is skipped). */
export function* readRecording(text: string): Generator<RecordingItem> {
  const lines = text.split('\n');
  const torn = lines.length > 1 && lines[lines.length - 1] !== '';
  if (!torn) lines.pop();
  if ((lines[0] ?? '').trim() !== RECORDING_MAGIC)
    throw new RecordingError(`line 1: not a crownhead recording (expected "${RECORDING_MAGIC}")`);
  for (let k = 1; k < lines.length; k++) {
    const line = lines[k].replace(/\r$/, '');
    const last = k === lines.length - 1 && torn;
    if (line.trim() === '' || line.startsWith('#')) continue;
    const fail = (why: string): never => {
      throw new RecordingError(`line ${k + 1}: ${why}`);
    };
    if (line.startsWith('{')) {
      let o: Record<string, unknown>;
      try {
        o = JSON.parse(line);
      } catch {
        if (last) return;
        fail('not valid JSON');
      }
      if (o!.header && typeof o!.header === 'object') yield { kind: 'header', header: o!.header as Record<string, unknown> };
      else if (o!.event === 'new-game' && typeof o!.t === 'number' && typeof o!.fen === 'string') {
        yield { kind: 'new-game', t: o!.t, fen: o!.fen, options: (o!.options ?? {}) as GameOptions };
      } else if (o!.event === 'board' && typeof o!.t === 'number' && typeof o!.connected === 'boolean') {
        yield { kind: 'board', t: o!.t, connected: o!.connected };
      } else fail(`unknown item ${line.slice(0, 60)}`);
      continue;
    }
    const space = line.indexOf(' ');
    const t = Number(line.slice(0, space));
    if (space < 0 || !Number.isFinite(t)) {
      if (last) return;
      fail(`expected "<time> <frame line>", got "${line.slice(0, 40)}"`);
    }
    const msg = parseBoardLine(line.slice(space + 1));
    if (msg.ok && msg.value.type === 'frame') {
      yield { kind: 'frame', t, seq: msg.value.seq, readings: msg.value.readings };
      continue;
    }
    if (last) return;
    fail(!msg.ok ? `bad frame: ${msg.error.message}` : `expected a frame, got a ${msg.value.type} line`);
  }
}

// Wire protocol v1 codec (see firmware/PROTOCOL.md, which is authoritative).
// Owns: turning one board line into a typed message or a typed error (a
// Result, never a throw), formatting board lines (the simulated board emits exactly what the
// firmware emits) and host commands, and the NMEA-style XOR checksum.
// Pure and allocation-light: it runs 100×/s per board (bench/codec.ts).

import { CrownheadError } from '../common/errors.ts';
import { err, ok, type Result } from '../common/result.ts';

export const PROTOCOL_VERSION = 1;
export const SQUARES = 32;
export const MAX_LINE = 127;
export const MAX_SEQ = 0xffff;

export interface BoardIdentity {
  type: 'identity';
  proto: number;
  fw: string;
  id: string;
  n: number;
  /** measured full-board scans per second */
  scan: number;
  /** frames per second asked for */
  rate: number;
  mode: 'S' | 'Q';
  /** unknown key=value fields (forward compatible) */
  extra: Record<string, string>;
}
export interface FrameMessage {
  type: 'frame';
  seq: number;
  /** 32 10-bit readings, index 0 = square 1 */
  readings: Uint16Array;
}
export interface HeartbeatMessage {
  type: 'heartbeat';
  seq: number;
}
export interface OkMessage {
  type: 'ok';
  cmd: string;
}
export type BoardErrorCode = 'BADCMD' | 'BADARG' | 'CHECKSUM' | 'TOOLONG';
export interface BoardErrorMessage {
  type: 'error';
  code: BoardErrorCode | (string & {});
  text: string;
}
export type BoardMessage = BoardIdentity | FrameMessage | HeartbeatMessage | OkMessage | BoardErrorMessage;

export type ProtocolErrorReason = 'checksum' | 'length' | 'version' | 'syntax' | 'too-long' | 'garbage';
export const PROTOCOL_ERROR_REASONS: readonly ProtocolErrorReason[] = ['checksum', 'length', 'version', 'syntax', 'too-long', 'garbage'];
/** A line that is not a message of the protocol: why (its code, also `reason`), the problem named ("checksum *1C, computed *1B"), the line. */
export class ProtocolError extends CrownheadError<ProtocolErrorReason> {
  override readonly name = 'ProtocolError';
  readonly type = 'invalid' as const;
  constructor(
    readonly reason: ProtocolErrorReason,
    message: string,
    /** the offending line (cut to 140 characters) */
    readonly line: string,
  ) {
    super(reason, message);
  }
}

export type BuzzPattern = 'ILLEGAL' | 'OK' | 'GAMEOVER' | 'YOURMOVE' | 'OFF';
export type LedState = 0 | 1 | 'BLINK';
export type HostCommand =
  | { type: 'identify' }
  | { type: 'rate'; fps: number }
  | { type: 'mode'; mode: 'S' | 'Q' }
  | { type: 'buzz'; pattern: BuzzPattern }
  | { type: 'led'; state: LedState }
  | { type: 'id'; id: string };

// ---------------------------------------------------------------- checksum

const HEX = '0123456789ABCDEF';

function xorOf(s: string, end: number): number {
  let x = 0;
  for (let i = 0; i < end; i++) x ^= s.charCodeAt(i);
  return x & 0xff;
}

/** XOR of every character of `s`, as two upper-case hex digits. */
export function checksum(s: string): string {
  const x = xorOf(s, s.length);
  return HEX[x >> 4] + HEX[x & 15];
}

/** value of one hex digit (either case), or -1 */
function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 65 && c <= 70) return c - 55;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

/** parse `len` hex digits at `at`, or -1 */
function hexAt(s: string, at: number, len: number): number {
  let v = 0;
  for (let i = at; i < at + len; i++) {
    const d = hexDigit(s.charCodeAt(i));
    if (d < 0) return -1;
    v = (v << 4) | d;
  }
  return v;
}

// ------------------------------------------------------------------ parse

function fail(reason: ProtocolErrorReason, message: string, line: string): ProtocolError {
  return new ProtocolError(reason, message, line.length > 140 ? line.slice(0, 140) + '…' : line);
}

const ID_RE = /^[A-Za-z0-9_-]{1,16}$/;

/** Parse one line from the board (without its `\n`; `\r` is tolerated): the message, or the ProtocolError naming what is wrong. */
export function parseBoardLine(raw: string): Result<BoardMessage, ProtocolError> {
  const m = decodeBoardLine(raw);
  return m.type === 'invalid' ? err(m) : ok(m);
}

function decodeBoardLine(raw: string): BoardMessage | ProtocolError {
  let line = raw;
  let end = line.length;
  if (end > 0 && line.charCodeAt(end - 1) === 10) end--; // stray \n
  if (end > 0 && line.charCodeAt(end - 1) === 13) end--; // \r\n
  let start = 0;
  if (end > 0 && line.charCodeAt(0) === 13) start = 1; // leading \r
  if (start !== 0 || end !== line.length) line = line.slice(start, end);
  const n = line.length;

  if (n > MAX_LINE) return fail('too-long', `line of ${n} characters (at most ${MAX_LINE})`, line);
  if (n === 0) return fail('garbage', 'empty line', line);
  for (let i = 0; i < n; i++) {
    const c = line.charCodeAt(i);
    if (c < 32 || c > 126) {
      return fail('garbage', `non-printable byte 0x${c.toString(16).padStart(2, '0')} at column ${i + 1}`, line);
    }
  }
  if (n < 4 || line.charCodeAt(n - 3) !== 42 /* * */) {
    return fail('syntax', 'missing checksum (*HH) at end of line', line);
  }
  const sent = hexAt(line, n - 2, 2);
  if (sent < 0) return fail('syntax', `bad checksum digits "${line.slice(n - 2)}"`, line);
  const body = n - 3;
  const computed = xorOf(line, body);
  if (sent !== computed) {
    return fail('checksum', `checksum *${line.slice(n - 2)}, computed *${HEX[computed >> 4]}${HEX[computed & 15]}`, line);
  }
  if (body < 2 || line.charCodeAt(1) !== 32) {
    // every board line is "<TYPE> ..."; OK is the only two-letter type
    if (line.startsWith('OK ')) return parseOk(line, body);
    return fail('garbage', `unknown line type "${line.slice(0, Math.min(body, 8))}"`, line);
  }
  switch (line.charCodeAt(0)) {
    case 70 /* F */:
      return parseFrame(line, body);
    case 72 /* H */:
      return parseHeartbeat(line, body);
    case 73 /* I */:
      return parseIdentity(line, body);
    case 69 /* E */:
      return parseError(line, body);
    default:
      return fail('garbage', `unknown line type "${line[0]}"`, line);
  }
}

function parseSeq(line: string, body: number, what: string): number | ProtocolError {
  // "<T> SSSS" then either end of body or a space
  if (body < 6 || (body > 6 && line.charCodeAt(6) !== 32)) {
    const tok = line.slice(2, body).split(' ')[0];
    return fail('length', `${what} seq "${tok}" is not 4 hex digits`, line);
  }
  const seq = hexAt(line, 2, 4);
  if (seq < 0) return fail('syntax', `${what} seq "${line.slice(2, 6)}" is not hex`, line);
  return seq;
}

function parseFrame(line: string, body: number): FrameMessage | ProtocolError {
  const seq = parseSeq(line, body, 'frame');
  if (typeof seq !== 'number') return seq;
  const count = body - 7;
  if (body < 7 || count !== SQUARES * 3) {
    return fail('length', `frame has ${Math.max(count, 0)} reading digits, expected ${SQUARES * 3} (32 × 3)`, line);
  }
  const readings = new Uint16Array(SQUARES);
  for (let i = 0, p = 7; i < SQUARES; i++, p += 3) {
    const v = hexAt(line, p, 3);
    if (v < 0) return fail('syntax', `reading ${i + 1} "${line.slice(p, p + 3)}" is not hex`, line);
    if (v > 1023) return fail('syntax', `reading ${i + 1} = ${v} exceeds 10 bits`, line);
    readings[i] = v;
  }
  return { type: 'frame', seq, readings };
}

function parseHeartbeat(line: string, body: number): HeartbeatMessage | ProtocolError {
  const seq = parseSeq(line, body, 'heartbeat');
  if (typeof seq !== 'number') return seq;
  if (body !== 6) return fail('length', `heartbeat has ${body - 6} extra characters`, line);
  return { type: 'heartbeat', seq };
}

function parseOk(line: string, body: number): OkMessage | ProtocolError {
  const cmd = line.slice(3, body);
  if (!/^[A-Z?]+$/.test(cmd)) return fail('syntax', `OK names no command word ("${cmd}")`, line);
  return { type: 'ok', cmd };
}

function parseError(line: string, body: number): BoardErrorMessage | ProtocolError {
  const rest = line.slice(2, body);
  const sp = rest.indexOf(' ');
  const code = sp < 0 ? rest : rest.slice(0, sp);
  if (!/^[A-Z]+$/.test(code)) return fail('syntax', `error code "${code}" is not a code word`, line);
  return { type: 'error', code, text: sp < 0 ? '' : rest.slice(sp + 1) };
}

function parseIdentity(line: string, body: number): BoardIdentity | ProtocolError {
  const tokens = line.slice(2, body).split(' ');
  if (tokens[0] !== 'CROWNHEAD') {
    return fail('version', `identity "${tokens[0]}" is not a CROWNHEAD board`, line);
  }
  const kv: Record<string, string> = {};
  for (let i = 1; i < tokens.length; i++) {
    const t = tokens[i];
    const eq = t.indexOf('=');
    if (eq <= 0) return fail('syntax', `identity field "${t}" is not key=value`, line);
    kv[t.slice(0, eq)] = t.slice(eq + 1);
  }
  const { proto, fw, id, n, scan, rate, mode, ...extra } = kv;
  if (proto === undefined) return fail('syntax', 'identity has no proto= field', line);
  if (proto !== String(PROTOCOL_VERSION)) {
    return fail('version', `protocol version ${proto} not supported (this host speaks proto=${PROTOCOL_VERSION})`, line);
  }
  const missing = (['fw', 'id', 'n', 'scan', 'rate', 'mode'] as const).filter((k) => kv[k] === undefined);
  if (missing.length) return fail('syntax', `identity lacks ${missing.map((k) => k + '=').join(', ')}`, line);
  if (!ID_RE.test(id)) return fail('syntax', `board id "${id}" is not 1–16 of [A-Za-z0-9_-]`, line);
  const num = (s: string) => (/^\d+(\.\d+)?$/.test(s) ? Number(s) : NaN);
  const nn = num(n);
  if (nn !== SQUARES) return fail('syntax', `identity n=${n}, expected n=${SQUARES}`, line);
  const sc = num(scan);
  const rt = num(rate);
  if (Number.isNaN(sc) || Number.isNaN(rt)) return fail('syntax', `identity scan=${scan} rate=${rate} are not numbers`, line);
  if (mode !== 'S' && mode !== 'Q') return fail('syntax', `identity mode=${mode}, expected S or Q`, line);
  return { type: 'identity', proto: PROTOCOL_VERSION, fw, id, n: nn, scan: sc, rate: rt, mode, extra };
}

// ----------------------------------------------------------------- format

function hex(v: number, digits: number): string {
  let s = '';
  for (let i = digits - 1; i >= 0; i--) s += HEX[(v >> (i * 4)) & 15];
  return s;
}

/** Format a board line exactly as the firmware sends it, checksum included, without the `\n`. */
export function makeBoardLine(msg: BoardMessage): string {
  let body: string;
  switch (msg.type) {
    case 'frame': {
      body = 'F ' + hex(msg.seq & MAX_SEQ, 4) + ' ';
      const r = msg.readings;
      for (let i = 0; i < SQUARES; i++) {
        const v = r[i] > 1023 ? 1023 : r[i];
        body += HEX[v >> 8] + HEX[(v >> 4) & 15] + HEX[v & 15];
      }
      break;
    }
    case 'heartbeat':
      body = 'H ' + hex(msg.seq & MAX_SEQ, 4);
      break;
    case 'identity': {
      body = `I CROWNHEAD proto=${msg.proto} fw=${msg.fw} id=${msg.id} n=${msg.n}` + ` scan=${msg.scan} rate=${msg.rate} mode=${msg.mode}`;
      for (const [k, v] of Object.entries(msg.extra)) body += ` ${k}=${v}`;
      break;
    }
    case 'ok':
      body = 'OK ' + msg.cmd;
      break;
    case 'error':
      body = msg.text ? `E ${msg.code} ${msg.text}` : `E ${msg.code}`;
      break;
  }
  return body + '*' + checksum(body);
}

/** Format a host command with its checksum, without the `\n`. Throws RangeError on an invalid argument. */
export function makeHostCommand(cmd: HostCommand): string {
  let body: string;
  switch (cmd.type) {
    case 'identify':
      body = '?';
      break;
    case 'rate':
      if (!Number.isInteger(cmd.fps) || cmd.fps < 1 || cmd.fps > 100) {
        throw new RangeError(`RATE must be an integer 1–100, got ${cmd.fps}`);
      }
      body = `RATE ${cmd.fps}`;
      break;
    case 'mode':
      body = `MODE ${cmd.mode}`;
      break;
    case 'buzz':
      body = `BUZZ ${cmd.pattern}`;
      break;
    case 'led':
      body = `LED ${cmd.state}`;
      break;
    case 'id':
      if (!ID_RE.test(cmd.id)) throw new RangeError(`board id "${cmd.id}" must be 1–16 of [A-Za-z0-9_-]`);
      body = `ID ${cmd.id}`;
      break;
  }
  return body + '*' + checksum(body);
}

/**
 * Parse a host command line (what a board receives) — used by the simulated
 * board and test peers. The checksum is optional, as on the firmware.
 */
export function parseHostCommand(raw: string): Result<HostCommand, ProtocolError> {
  const c = decodeHostCommand(raw);
  return c.type === 'invalid' ? err(c) : ok(c);
}

function decodeHostCommand(raw: string): HostCommand | ProtocolError {
  let line = raw.replace(/\r?\n$/, '').replace(/^\r/, '');
  if (line.length > MAX_LINE) return fail('too-long', `command of ${line.length} characters`, line);
  const star = line.lastIndexOf('*');
  if (star >= 0 && star === line.length - 3) {
    const sent = hexAt(line, star + 1, 2);
    if (sent < 0 || sent !== xorOf(line, star)) return fail('checksum', `command checksum *${line.slice(star + 1)} is wrong`, line);
    line = line.slice(0, star);
  }
  const [word, arg, more] = line.split(' ');
  const bad = (m: string) => fail('syntax', m, line);
  if (more !== undefined) return bad(`too many arguments in "${line}"`);
  switch (word) {
    case '?':
      return arg === undefined ? { type: 'identify' } : bad('? takes no argument');
    case 'RATE': {
      const fps = /^\d{1,3}$/.test(arg ?? '') ? Number(arg) : NaN;
      return fps >= 1 && fps <= 100 ? { type: 'rate', fps } : bad(`RATE ${arg}: expected 1–100`);
    }
    case 'MODE':
      return arg === 'S' || arg === 'Q' ? { type: 'mode', mode: arg } : bad(`MODE ${arg}: expected S or Q`);
    case 'BUZZ':
      return arg === 'ILLEGAL' || arg === 'OK' || arg === 'GAMEOVER' || arg === 'YOURMOVE' || arg === 'OFF'
        ? { type: 'buzz', pattern: arg }
        : bad(`BUZZ ${arg}: unknown pattern`);
    case 'LED':
      return arg === '0' || arg === '1'
        ? { type: 'led', state: arg === '1' ? 1 : 0 }
        : arg === 'BLINK'
          ? { type: 'led', state: 'BLINK' }
          : bad(`LED ${arg}: expected 0, 1 or BLINK`);
    case 'ID':
      return arg !== undefined && ID_RE.test(arg) ? { type: 'id', id: arg } : bad(`ID ${arg}: expected 1–16 of [A-Za-z0-9_-]`);
    default:
      return fail('garbage', `unknown command "${word}"`, line);
  }
}

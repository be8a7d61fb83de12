import { describe, expect, it } from 'vitest';
import {
  LineStats,
  checksum,
  makeBoardLine,
  makeHostCommand,
  parseBoardLine,
  parseHostCommand,
  type BoardMessage,
  type HostCommand,
  ProtocolError,
} from '../../src/sensors/index.ts';

const readings = Uint16Array.from({ length: 32 }, (_, i) => (i * 37 + 5) % 1024);
const identity: BoardMessage = {
  type: 'identity',
  proto: 1,
  fw: '1.0.0',
  id: 'board-7',
  n: 32,
  scan: 2480,
  rate: 100,
  mode: 'S',
  extra: {},
};

function err(line: string): ProtocolError {
  const r = parseBoardLine(line);
  expect(r.ok).toBe(false);
  if (r.ok) throw new Error(`parsed: ${line}`);
  expect(r.error).toBeInstanceOf(ProtocolError);
  expect(r.error.code).toBe(r.error.reason);
  return r.error;
}
/** a line with a correct checksum */
const sum = (body: string) => `${body}*${checksum(body)}`;

describe('checksum', () => {
  it('matches the PROTOCOL.md example', () => {
    expect(checksum('H 002A')).toBe('1B');
    expect(makeBoardLine({ type: 'heartbeat', seq: 0x2a })).toBe('H 002A*1B');
  });
});

describe('round trips', () => {
  const messages: BoardMessage[] = [
    identity,
    { ...identity, mode: 'Q', scan: 812.5, extra: { led: 'ws2812', hw: 'rev2' } },
    { type: 'frame', seq: 0, readings },
    { type: 'frame', seq: 0xffff, readings: new Uint16Array(32).fill(1023) },
    { type: 'heartbeat', seq: 0xbeef },
    { type: 'ok', cmd: 'RATE' },
    { type: 'error', code: 'BADARG', text: 'RATE wants 1-100' },
    { type: 'error', code: 'BADCMD', text: '' },
  ];
  for (const m of messages) {
    it(`${m.type} survives make → parse`, () => {
      const line = makeBoardLine(m);
      expect(line.length).toBeLessThanOrEqual(127);
      expect(parseBoardLine(line)).toEqual({ ok: true, value: m });
      expect(parseBoardLine(line + '\r')).toEqual({ ok: true, value: m });
      expect(parseBoardLine('\r' + line + '\r\n')).toEqual({ ok: true, value: m });
    });
  }
  it('a frame line is 106 characters as specified', () => {
    expect(makeBoardLine({ type: 'frame', seq: 1, readings })).toHaveLength(106);
  });
  it('parses lower-case hex digits too', () => {
    const line = makeBoardLine({ type: 'frame', seq: 0xabcd, readings }).slice(0, -3).toLowerCase().replace(/^f/, 'F');
    const r = parseBoardLine(sum(line));
    expect(r).toEqual({ ok: true, value: { type: 'frame', seq: 0xabcd, readings } });
  });
  const commands: [HostCommand, string][] = [
    [{ type: 'identify' }, '?'],
    [{ type: 'rate', fps: 25 }, 'RATE 25'],
    [{ type: 'mode', mode: 'Q' }, 'MODE Q'],
    [{ type: 'buzz', pattern: 'ILLEGAL' }, 'BUZZ ILLEGAL'],
    [{ type: 'led', state: 'BLINK' }, 'LED BLINK'],
    [{ type: 'led', state: 0 }, 'LED 0'],
    [{ type: 'id', id: 'kitchen' }, 'ID kitchen'],
  ];
  for (const [cmd, body] of commands) {
    it(`host command ${body}`, () => {
      const line = makeHostCommand(cmd);
      expect(line).toBe(`${body}*${checksum(body)}`);
      expect(parseHostCommand(line)).toEqual({ ok: true, value: cmd });
      expect(parseHostCommand(body)).toEqual({ ok: true, value: cmd }); // typed by a person, no checksum
    });
  }
  it('refuses invalid host command arguments', () => {
    expect(() => makeHostCommand({ type: 'rate', fps: 0 })).toThrow(RangeError);
    expect(() => makeHostCommand({ type: 'rate', fps: 101 })).toThrow(/1–100/);
    expect(() => makeHostCommand({ type: 'id', id: 'has space' })).toThrow(RangeError);
    expect(parseHostCommand('RATE 50*00')).toMatchObject({ ok: false, error: { type: 'invalid', reason: 'checksum' } });
    expect(parseHostCommand('JUMP')).toMatchObject({ ok: false, error: { type: 'invalid', reason: 'garbage' } });
  });
});

describe('every error kind', () => {
  const frame = makeBoardLine({ type: 'frame', seq: 7, readings });
  it('checksum: a flipped bit', () => {
    const bad = frame.slice(0, 20) + (frame[20] === '0' ? '1' : '0') + frame.slice(21);
    const e = err(bad);
    expect(e.reason).toBe('checksum');
    expect(e.message).toMatch(/checksum \*[0-9A-F]{2}, computed \*[0-9A-F]{2}/);
  });
  it('length: too few or too many readings, short seq', () => {
    expect(err(sum(frame.slice(0, -6))).reason).toBe('length');
    expect(err(sum(frame.slice(0, -3) + '3FF')).message).toMatch(/99 reading digits, expected 96/);
    expect(err(sum('H 02A')).reason).toBe('length');
    expect(err(sum('F 00007 ' + '000'.repeat(32))).reason).toBe('length');
  });
  it('version: another protocol or another device', () => {
    const e = err(sum('I CROWNHEAD proto=2 fw=2.0.0 id=X n=32 scan=1 rate=1 mode=S'));
    expect(e.reason).toBe('version');
    expect(e.message).toMatch(/protocol version 2 not supported/);
    expect(err(sum('I GRBL fw=1.1')).reason).toBe('version');
  });
  it('syntax: malformed fields', () => {
    expect(err('F 0007 000').message).toMatch(/missing checksum/);
    expect(err('H 002A*1G').message).toMatch(/bad checksum digits/);
    expect(err(sum('F 0007 ' + 'XYZ' + '000'.repeat(31))).message).toMatch(/reading 1 "XYZ" is not hex/);
    expect(err(sum('F 0007 ' + '400' + '000'.repeat(31))).message).toMatch(/exceeds 10 bits/);
    expect(err(sum('H 00G1')).reason).toBe('syntax');
    expect(err(sum('I CROWNHEAD proto=1 fw=1.0.0 id=X n=32 scan=1 rate=1')).message).toMatch(/lacks mode=/);
    expect(err(sum('I CROWNHEAD proto=1 fw=1.0.0 id=X n=32 scan=1 rate=1 mode=Z')).reason).toBe('syntax');
    expect(err(sum('I CROWNHEAD proto=1 fw=1.0.0 id=way-too-long-board-id n=32 scan=1 rate=1 mode=S')).reason).toBe('syntax');
    expect(err(sum('I CROWNHEAD fw=1.0.0')).message).toMatch(/no proto=/);
  });
  it('too-long: over 127 characters', () => {
    const e = err(sum('E BADARG ' + 'x'.repeat(130)));
    expect(e.reason).toBe('too-long');
    expect(e.line.length).toBeLessThanOrEqual(141);
  });
  it('garbage: binary bytes, unknown types, empty lines', () => {
    expect(err('\x00\xff\x13F 0').reason).toBe('garbage');
    expect(err(sum('Z 0000')).message).toMatch(/unknown line type/);
    expect(err('').reason).toBe('garbage');
  });
  it('a line cut at the front (dropped bytes) is rejected', () => {
    for (let cut = 1; cut < frame.length - 1; cut += 7) {
      expect(parseBoardLine(frame.slice(cut)).ok).toBe(false);
    }
  });
  it('never throws on random input', () => {
    let x = 12345;
    const rnd = () => (x = (x * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    for (let i = 0; i < 5000; i++) {
      const len = Math.floor(rnd() * 140);
      let s = '';
      for (let j = 0; j < len; j++) s += String.fromCharCode(Math.floor(rnd() * 256));
      expect(() => parseBoardLine(s)).not.toThrow();
      expect(() => parseHostCommand(s)).not.toThrow();
    }
  });
});

describe('LineStats', () => {
  it('counts kinds and detects gaps across the wrap', () => {
    const st = new LineStats();
    const f = (seq: number) => parseBoardLine(makeBoardLine({ type: 'frame', seq, readings }));
    expect(st.record(f(0xfffd))).toBe(0);
    expect(st.record(f(0xfffe))).toBe(0);
    expect(st.record(f(0xffff))).toBe(0);
    expect(st.record(f(0x0000))).toBe(0); // wrap is not a gap
    expect(st.record(f(0x0003))).toBe(2); // 1 and 2 lost
    expect(st.record(parseBoardLine(makeBoardLine({ type: 'heartbeat', seq: 4 })))).toBe(0);
    expect(st.record(f(0xfffe))).toBe(0); // 4 → 0xfffe: backwards, a restart, not lost lines
    st.record(parseBoardLine('junk'));
    st.record(parseBoardLine('H 002A*00'));
    const s = st.figures();
    expect(s).toMatchObject({ frames: 6, heartbeats: 1, linesOk: 7, gaps: 1, linesMissed: 2, restarts: 1 });
    expect(s.errors).toMatchObject({ syntax: 1, checksum: 1 });
    expect(s.errorTotal).toBe(2);
  });
  it('treats a jump of half the range or more as a restart', () => {
    const st = new LineStats();
    st.seq(1000);
    st.seq(10); // board rebooted
    st.seq(10); // duplicate
    expect(st.figures()).toMatchObject({ restarts: 2, gaps: 0, linesMissed: 0 });
  });
});

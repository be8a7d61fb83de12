// A model of an Arduino running StandardFirmata with our mux wiring, speaking
// the Firmata byte protocol: REPORT_VERSION and firmware name at boot and on
// request, capability and analog-mapping responses, pin modes, digital port
// writes (the mux select pins pick the channel), analog reports of enabled
// pins every sampling interval, read from a board model. Used by the Firmata
// driver's tests and bench over SerialPortMock. Bytes in: feed(); bytes out: the `out` callback.

import type { PinMap } from '../../../src/sensors/firmata.ts';

const ANALOG_PINS = [14, 15, 16, 17, 18, 19]; // Uno A0–A5
const TOTAL_PINS = 20;

export interface FirmataPeerOptions {
  pinmap: PinMap;
  /** reading (0–1023) of a square (1–32) now */
  read(square: number): number;
  /** bytes to the host */
  out(bytes: number[]): void;
  name?: string;
}

export class FirmataPeer {
  /** analog sampling interval, ms (StandardFirmata default 19) */
  samplingInterval = 19;
  /** every (pin, level) digital output change, in order */
  readonly pinLog: { pin: number; level: number }[] = [];
  readonly modes = new Map<number, number>();
  private readonly ports = new Array<number>(16).fill(0);
  private readonly reporting = new Set<number>();
  private buf: number[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly squareOf = new Map<string, number>();

  constructor(private readonly o: FirmataPeerOptions) {
    for (const s of o.pinmap.squares) this.squareOf.set(`${s.mux}:${s.channel}`, s.square);
  }

  /** What StandardFirmata sends at boot. */
  boot(): void {
    this.reportVersion();
    this.reportFirmware();
    this.schedule();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  level(pin: number): number {
    return (this.ports[pin >> 3] >> (pin & 7)) & 1;
  }

  /** the channel the select pins choose now */
  channel(): number {
    return this.o.pinmap.muxSelectPins.reduce((ch, pin, bit) => ch | (this.level(pin) << bit), 0);
  }

  feed(bytes: Iterable<number>): void {
    for (const b of bytes) {
      if (b & 0x80 && this.buf[0] !== 0xf0) this.buf = []; // a command byte starts a message
      if (b === 0xf7 && this.buf[0] === 0xf0) {
        this.sysex(this.buf.slice(1));
        this.buf = [];
        continue;
      }
      this.buf.push(b);
      this.tryMessage();
    }
  }

  private tryMessage(): void {
    const [c, a, b] = this.buf;
    const n = this.buf.length;
    if (c === 0xf9) {
      this.reportVersion();
      this.buf = [];
    } else if (c === 0xff) {
      this.buf = [];
    } else if (c === 0xf4 && n === 3) {
      this.modes.set(a, b);
      this.buf = [];
    } else if (c === 0xf5 && n === 3) {
      this.setPin(a, b);
      this.buf = [];
    } else if ((c & 0xf0) === 0x90 && n === 3) {
      const port = c & 0x0f;
      const value = a | (b << 7);
      for (let bit = 0; bit < 8; bit++) {
        const pin = port * 8 + bit;
        if (this.modes.get(pin) === 1) this.setPin(pin, (value >> bit) & 1);
      }
      this.buf = [];
    } else if ((c & 0xf0) === 0xc0 && n === 2) {
      if (a) this.reporting.add(c & 0x0f);
      else this.reporting.delete(c & 0x0f);
      this.buf = [];
    } else if ((c & 0xf0) === 0xd0 && n === 2) {
      this.buf = [];
    }
  }

  private setPin(pin: number, level: number): void {
    if (this.level(pin) === level) return;
    const port = pin >> 3;
    this.ports[port] = level ? this.ports[port] | (1 << (pin & 7)) : this.ports[port] & ~(1 << (pin & 7));
    this.pinLog.push({ pin, level });
  }

  private sysex(data: number[]): void {
    const [cmd, ...rest] = data;
    switch (cmd) {
      case 0x79:
        return this.reportFirmware();
      case 0x6b: {
        // capability response: digital pins INPUT/OUTPUT/PWM-less, analog pins also ANALOG 10-bit
        const out = [0xf0, 0x6c];
        for (let p = 0; p < TOTAL_PINS; p++) {
          out.push(0x00, 1, 0x01, 1, 0x0b, 1);
          if (ANALOG_PINS.includes(p)) out.push(0x02, 10);
          out.push(0x7f);
        }
        out.push(0xf7);
        return this.o.out(out);
      }
      case 0x69: {
        const out = [0xf0, 0x6a];
        for (let p = 0; p < TOTAL_PINS; p++) out.push(ANALOG_PINS.includes(p) ? p - 14 : 0x7f);
        out.push(0xf7);
        return this.o.out(out);
      }
      case 0x7a:
        this.samplingInterval = Math.max(1, rest[0] | (rest[1] << 7));
        return;
    }
  }

  private reportVersion(): void {
    this.o.out([0xf9, 2, 5]);
  }

  private reportFirmware(): void {
    const name = this.o.name ?? 'StandardFirmata.ino';
    const out = [0xf0, 0x79, 2, 5];
    for (const ch of Buffer.from(name)) out.push(ch & 0x7f, ch >> 7);
    out.push(0xf7);
    this.o.out(out);
  }

  private schedule(): void {
    this.timer = setTimeout(() => {
      this.sample();
      this.schedule();
    }, this.samplingInterval);
    this.timer.unref?.();
  }

  private sample(): void {
    const ch = this.channel();
    const out: number[] = [];
    for (const a of [...this.reporting].sort()) {
      const mux = this.o.pinmap.muxSignalAnalog.indexOf(a);
      const sq = mux >= 0 ? this.squareOf.get(`${mux}:${ch}`) : undefined;
      const v = sq === undefined ? 0 : Math.max(0, Math.min(1023, Math.round(this.o.read(sq))));
      out.push(0xe0 | a, v & 0x7f, v >> 7);
    }
    if (out.length) this.o.out(out);
  }
}

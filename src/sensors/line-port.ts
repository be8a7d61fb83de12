// One open serial port seen as a stream of text lines: serialport +
// ReadlineParser ('\n', '\r' stripped by the codec), latin1 so every byte is
// one character (binary garbage stays visible to the codec). Owns opening and
// closing the port cleanly and telling why it closed (unplugged vs closed).
// The binding is injectable: serialport's native one, or SerialPortMock.binding.

import { SerialPort, type SerialPortMock } from 'serialport';
import { ReadlineParser } from '@serialport/parser-readline';

/** A serialport binding: the native one (SerialPort.binding) or SerialPortMock.binding. */
export type SerialBinding = typeof SerialPort.binding | typeof SerialPortMock.binding;
export type PortInfo = Awaited<ReturnType<typeof SerialPort.list>>[number];

export const BAUD_RATE = 115200;
/** bytes kept waiting for a newline before they are dropped (a line is at most 128) */
const MAX_PENDING = 1024;

export class LinePort {
  private readonly port: SerialPort;
  private readonly parser: ReadlineParser;
  private lineHandler: ((line: string) => void) | null = null;
  private readonly queued: string[] = [];
  private closeHandler: ((reason: string) => void) | null = null;
  private closed = false;
  private closeReason: string | null = null;

  private constructor(
    port: SerialPort,
    readonly path: string,
  ) {
    this.port = port;
    this.parser = port.pipe(new ReadlineParser({ delimiter: '\n', encoding: 'latin1' }));
    this.parser.on('data', (line: string) => {
      if (this.lineHandler) this.lineHandler(line);
      else if (this.queued.length < 64) this.queued.push(line);
    });
    this.parser.on('error', () => {}); // the port's own error handler below reports
    port.on('data', () => {
      // bytes without a newline pile up in the parser: past MAX_PENDING, drop them as one too-long line
      const p = this.parser as unknown as { buffer: Buffer };
      if (p.buffer.length > MAX_PENDING) {
        const dropped = p.buffer.toString('latin1', 0, 200);
        p.buffer = Buffer.alloc(0);
        if (this.lineHandler) this.lineHandler(dropped);
      }
    });
    port.on('close', (err?: Error & { disconnected?: boolean }) => {
      this.finish(err?.disconnected ? `unplugged (${err.message})` : 'port closed');
    });
    port.on('error', (err: Error) => {
      // a write/read error on an open port: treat the link as gone
      if (!port.isOpen) this.finish(`port error: ${err.message}`);
      else port.close(() => this.finish(`port error: ${err.message}`));
    });
  }

  /** Open `path` with `binding`. Rejects with the binding's error (no such port, locked, …). */
  static open(binding: SerialBinding, path: string, baudRate = BAUD_RATE): Promise<LinePort> {
    return new Promise((resolve, reject) => {
      // serialport's constructor spreads our binding over its native default
      const opts = { path, baudRate, autoOpen: false, binding } as unknown as ConstructorParameters<typeof SerialPort>[0];
      const port = new SerialPort(opts);
      port.open((err) => {
        if (err) {
          reject(new Error(`cannot open ${path}: ${err.message}`));
          return;
        }
        resolve(new LinePort(port, path));
      });
    });
  }

  /** Receive lines; lines that arrived while no handler was set are delivered first. */
  onLine(handler: ((line: string) => void) | null): void {
    this.lineHandler = handler;
    while (handler && this.queued.length && this.lineHandler === handler) handler(this.queued.shift()!);
  }

  /** Called once, when the port closes for any reason (unplug, error, close()). */
  onClose(handler: (reason: string) => void): void {
    this.closeHandler = handler;
    if (this.closed) handler(this.closeReason!);
  }

  get isOpen(): boolean {
    return !this.closed && this.port.isOpen;
  }

  /** Write one line (a `\n` is added). Resolves true once written, false if the port is gone. */
  write(line: string): Promise<boolean> {
    if (!this.isOpen) return Promise.resolve(false);
    return new Promise((resolve) => {
      this.port.write(line + '\n', 'latin1', (err) => resolve(!err));
    });
  }

  /** Close the port; resolves when it is closed (never rejects). */
  close(): Promise<void> {
    if (!this.port.isOpen) {
      this.finish('port closed');
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.port.close(() => {
        this.finish('port closed');
        resolve();
      });
    });
  }

  private finish(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.closeReason = reason;
    this.parser.removeAllListeners('data');
    this.port.unpipe(this.parser);
    this.closeHandler?.(reason);
  }
}

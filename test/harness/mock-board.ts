// Shared by tests and benches (bench/service.ts). Test transport:
// serialport's SerialPortMock binding with scripted peers on its ports — a
// Crownhead board that speaks PROTOCOL.md lines, or any other device — in the
// manner of python-chess's mock transport. Peers see every byte the host
// writes; the test decides when lines are sent. Ports can be unplugged (the
// pending read fails, as on a real unplug) and plugged back.

import { SerialPortMock } from 'serialport';
import { makeBoardLine, parseHostCommand, type BoardIdentity, type BoardMessage, type HostCommand } from '../../src/sensors/index.ts';
import type { SerialBinding } from '../../src/sensors/line-port.ts';

const mock = SerialPortMock.binding;
type MockPortBinding = Awaited<ReturnType<typeof mock.open>>;

export interface Peer {
  /** called with each line the host wrote */
  onLine?(line: string, io: PeerIO): void;
  /** called with the raw bytes the host wrote (byte protocols: Firmata) */
  onData?(data: Buffer, io: PeerIO): void;
  /** called when the host opens the port */
  onOpen?(io: PeerIO): void;
}
export interface PeerIO {
  /** send raw bytes to the host */
  raw(data: string | Buffer): void;
  /** send a board message as the firmware formats it, with \r\n */
  send(msg: BoardMessage): void;
  readonly path: string;
}

interface Slot {
  path: string;
  peer: Peer;
  plugged: boolean;
  binding: MockPortBinding | null;
  written: string[];
  opens: number;
  partial: string;
}

export class MockBus {
  private slots = new Map<string, Slot>();
  /** a binding to give the driver */
  readonly binding: SerialBinding;

  constructor() {
    mock.reset();
    const bus = this;
    this.binding = {
      async list() {
        const all = await mock.list();
        return all.filter((p) => bus.slots.get(p.path)?.plugged);
      },
      async open(options: Parameters<typeof mock.open>[0]) {
        const slot = bus.slots.get(options.path);
        if (!slot?.plugged) throw new Error(`No such file or directory, cannot open ${options.path}`);
        const b = await mock.open(options);
        bus.wire(slot, b);
        return b;
      },
    } as SerialBinding;
  }

  /** Add a port with a peer behind it. */
  add(path: string, peer: Peer, info: { vendorId?: string; productId?: string; manufacturer?: string } = {}): void {
    mock.createPort(path, { ...info });
    this.slots.set(path, { path, peer, plugged: true, binding: null, written: [], opens: 0, partial: '' });
  }

  io(path: string): PeerIO {
    const slot = this.slot(path);
    return {
      path,
      raw: (data) => {
        if (slot.binding?.isOpen) slot.binding.emitData(data);
      },
      send: (msg) => {
        if (slot.binding?.isOpen) slot.binding.emitData(makeBoardLine(msg) + '\r\n');
      },
    };
  }

  /** lines the host wrote to `path` */
  written(path: string): string[] {
    return this.slot(path).written;
  }
  opens(path: string): number {
    return this.slot(path).opens;
  }
  isOpen(path: string): boolean {
    return Boolean(this.slot(path).binding?.isOpen);
  }

  /** Pull the cable: the host's pending read fails and the port disappears from the list. */
  unplug(path: string): void {
    const slot = this.slot(path);
    slot.plugged = false;
    const b = slot.binding as unknown as { pendingRead: ((err?: Error) => void) | null } | null;
    if (b?.pendingRead) {
      const pending = b.pendingRead;
      b.pendingRead = null;
      pending(new Error('EIO: i/o error (device unplugged)'));
    } else if (slot.binding) {
      const real = slot.binding;
      real.read = () => Promise.reject(new Error('EIO: i/o error (device unplugged)'));
    }
  }
  plug(path: string): void {
    this.slot(path).plugged = true;
  }

  private slot(path: string): Slot {
    const s = this.slots.get(path);
    if (!s) throw new Error(`no mock port ${path}`);
    return s;
  }

  private wire(slot: Slot, b: MockPortBinding): void {
    slot.binding = b;
    slot.opens++;
    slot.partial = '';
    const write = b.write.bind(b);
    const io = this.io(slot.path);
    b.write = async (buf: Buffer) => {
      await write(buf);
      if (slot.peer.onData) {
        const copy = Buffer.from(buf);
        queueMicrotask(() => slot.peer.onData!(copy, io));
        return;
      }
      slot.partial += buf.toString('latin1');
      let nl: number;
      while ((nl = slot.partial.indexOf('\n')) >= 0) {
        const line = slot.partial.slice(0, nl).replace(/\r$/, '');
        slot.partial = slot.partial.slice(nl + 1);
        slot.written.push(line);
        queueMicrotask(() => slot.peer.onLine?.(line, io));
      }
    };
    queueMicrotask(() => slot.peer.onOpen?.(io));
  }
}

export const IDENTITY: BoardIdentity = {
  type: 'identity',
  proto: 1,
  fw: '1.0.0',
  id: 'MOCK',
  n: 32,
  scan: 2400,
  rate: 100,
  mode: 'S',
  extra: {},
};

/** A Crownhead board: identity at boot and on `?`, OK for every command. */
export function crownheadPeer(
  identity: Partial<BoardIdentity> = {},
  opts: { bootIdentity?: boolean } = {},
): Peer & { commands: HostCommand[] } {
  const id = { ...IDENTITY, ...identity };
  const commands: HostCommand[] = [];
  return {
    commands,
    onOpen(io) {
      if (opts.bootIdentity) io.send(id);
    },
    onLine(line, io) {
      const read = parseHostCommand(line);
      if (!read.ok) return io.send({ type: 'error', code: 'BADCMD', text: read.error.message.slice(0, 60) });
      const cmd = read.value;
      commands.push(cmd);
      if (cmd.type === 'identify') io.send(id);
      else io.send({ type: 'ok', cmd: cmd.type.toUpperCase() });
    },
  };
}

export function frameMsg(seq: number, fill = 500): BoardMessage {
  return { type: 'frame', seq, readings: new Uint16Array(32).fill(fill) };
}

export { until } from './until.ts';

// Wires the StandardFirmata board model (./firmata-peer.ts) onto a MockBus port.
import { FirmataPeer } from './firmata-peer.ts';
import { loadPinMap } from '../../../src/sensors/index.ts';
import type { MockBus } from '../../harness/mock-board.ts';

export function addFirmataBoard(bus: MockBus, path: string, read: (square: number) => number): { peer: () => FirmataPeer | null } {
  let peer: FirmataPeer | null = null;
  bus.add(
    path,
    {
      onOpen(io) {
        peer?.stop();
        peer = new FirmataPeer({ pinmap: loadPinMap(), read, out: (bytes) => io.raw(Buffer.from(bytes)) });
        peer.boot();
      },
      onData(data) {
        peer?.feed(data);
      },
    },
    { vendorId: '2341' },
  );
  return { peer: () => peer };
}

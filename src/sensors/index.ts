// Sensors stage — owns src/sensors/. It turns the hardware (a Crownhead board
// over USB serial, a StandardFirmata board, the simavr-emulated firmware) or a
// model of it (the simulated board) into a stream of timestamped raw frames —
// 32 10-bit Hall readings per frame — and carries buzzer/LED/rate commands
// back. It knows nothing of pieces or moves: calibration and occupancy live
// in the stage above. Wire protocol: firmware/PROTOCOL.md (codec: protocol.ts).
//
//   protocol.ts   codec: parseBoardLine / makeBoardLine / makeHostCommand / checksum
//   linestats.ts  per-connection line counts, error kinds, seq gaps
//   source.ts     BoardSource interface (+ SourceBase plumbing)
//   serial.ts     real driver: serialport + ReadlineParser, handshake, reconnect
//   detect.ts     port auto-detection (candidate ranking, identity handshake)
//   firmata.ts    StandardFirmata boards via johnny-five (host-driven mux scan)
//   emulator.ts   simavr-emulated firmware (firmware/build/crownhead-emu)
//   open.ts       board spec ("auto", "serial:/dev/…", "firmata:…", "emulator", "sim") → source
//   line-port.ts  one serial port as a stream of text lines (serialport + ReadlineParser)
//   emitter.ts    tiny typed emitter
//   sim/          simulated board: physics, hand API, timelines, clocks

export * from './protocol.ts';
export { LineStats, type LineStatsSnapshot } from './linestats.ts';
export {
  SourceBase,
  defaultClock,
  type BoardSource,
  type Clock,
  type RawFrame,
  type SourceStats,
  type SourceStatus,
} from './source.ts';
export * from './sim/index.ts';
export { SerialBoardSource, stripScheme, type PathProvider, type SerialSourceOptions } from './serial.ts';
export {
  BOARD_VENDOR_IDS,
  BoardNotFoundError,
  HandshakeError,
  findBoard,
  handshake,
  listPorts,
  rankPorts,
  type HandshakeOptions,
} from './detect.ts';
export { LinePort, BAUD_RATE, type PortInfo, type SerialBinding } from './line-port.ts';
export { FirmataBoardSource, loadPinMap, type FirmataSourceOptions, type PinMap } from './firmata.ts';
export { EmulatorBoardSource, EMULATOR_BIN, FIRMWARE_ELF, type EmulatorOptions } from './emulator.ts';
export { createBoardSource, openBoardSource } from './open.ts';

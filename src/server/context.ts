// What the HTTP and WebSocket layers share: the session, the board source,
// the games store, access control, the logger, and the server's description
// (name, version, board, storage health) sent to every page.

import type { Logger } from 'pino';
import type { GameSession } from '../game/index.ts';
import type { GameStore, StorageHealth } from '../storage/index.ts';
import type { BoardSource } from '../sensors/source.ts';
import type { Access } from './access.ts';
import type { Command } from './messages.ts';

/** Storage health (defined with the store, src/storage/store.ts, with its events). */
export type { StorageHealth };

export interface ServerInfo {
  name: 'crownhead';
  version: string;
  /** true when the board is the simulated one (the page shows the hand) */
  sim: boolean;
  /** the source kind: sim, serial, firmata, emulator */
  source: string;
  /** the board in words, e.g. "Crownhead board A1 (firmware 1.0.0) on /dev/ttyACM0" */
  board: string;
  /** why the simulated board is used when a real one was asked for, if so */
  fallback: string | null;
  storage: StorageHealth;
  gamesDir: string;
}

export interface ServerContext {
  session: GameSession;
  source: BoardSource;
  store: GameStore;
  access: Access;
  logger: Logger;
  info(): ServerInfo;
  /** Runs a player's command; throws SessionError / CommandError. */
  command(command: Command): void;
}

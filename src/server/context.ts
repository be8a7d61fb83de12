// What the HTTP and WebSocket layers share of a room (room.ts makes it): the
// session, the board source, the games store, access control, the logger,
// and the server's description (name, version, board, storage health; the
// protocol's ServerInfo less what depends on the page) sent to every page.

import type { Logger } from 'pino';
import type { GameSession } from '../game/index.ts';
import type { GameStore } from '../storage/index.ts';
import type { ServerInfo } from '../protocol/v1.ts';
import type { BoardSource } from '../sensors/source.ts';
import type { Access } from './access.ts';
import type { Command } from '../protocol/v1.ts';

/** The server's description (src/protocol/v1.ts), less what depends on the page asking (readOnly, tokenRequired). */
export type ServerDescription = Omit<ServerInfo, 'readOnly' | 'tokenRequired'>;

export interface ServerContext {
  session: GameSession;
  source: BoardSource;
  store: GameStore;
  access: Access;
  logger: Logger;
  info(): ServerDescription;
  /** Runs a player's command; throws SessionError / CommandError (a station's board: a promise settled by the station's answer). */
  command(command: Command): void | Promise<void>;
}

// The club pages' socket: the one reconnecting socket (reconnecting-socket.ts)
// to the spectators' /watch/ws on the page's host (the arbiter's page sends
// its token along); the page stops it for good after the server refused it
// (forbidden), when trying again would only be refused again.

import { ReconnectingSocket } from './reconnecting-socket.ts';

export type {
  ReconnectingEvents as ClubSocketEvents,
  ReconnectingOptions as ClubSocketOptions,
  SocketLike,
} from './reconnecting-socket.ts';

export class ClubSocket extends ReconnectingSocket {
  /** /watch/ws on the page's host; a token (the arbiter's) goes along as ?token=. */
  static urlFor(loc: Pick<Location, 'protocol' | 'host'>, token: string | null = null): string {
    return `${loc.protocol === 'https:' ? 'wss:' : 'ws:'}//${loc.host}/watch/ws${token ? `?token=${encodeURIComponent(token)}` : ''}`;
  }
}

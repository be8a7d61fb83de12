// Where this page's game lives on the server: "/" for a single board (and the
// first board of a club), "/boards/ID/" for a club's other boards. Every API
// path, download link and the socket are made from it, so the one-board page
// serves any board unchanged. Also the socket's address and the early socket
// that boot.ts opens before the page's script has loaded (socket.ts takes it over).

/** The base path of a page at `pathname`: "/boards/ID/" when it is a board's page, else "/". */
export function basePath(pathname: string): string {
  return /^\/boards\/[A-Za-z0-9_-]{1,16}\//.exec(pathname)?.[0] ?? '/';
}

/** This page's base path (a test outside a browser gets "/"). */
export const BASE = basePath(typeof location === 'undefined' ? '/' : location.pathname);

/** An API path ("/api/…") under this page's base. */
export function at(path: string): string {
  return BASE + path.replace(/^\//, '');
}

/** The socket under the page's base (/ws, or /boards/ID/ws in club mode), with the control token if the page has one. */
export function socketUrl(loc: Pick<Location, 'protocol' | 'host'> & { pathname?: string }, token: string | null = null): string {
  const base = basePath(loc.pathname ?? '/');
  return `${loc.protocol === 'https:' ? 'wss:' : 'ws:'}//${loc.host}${base}ws${token ? `?token=${encodeURIComponent(token)}` : ''}`;
}

/** The socket boot.ts opened while the page's script loaded: what it heard so far, kept for socket.ts. */
export interface EarlySocket {
  url: string;
  ws: WebSocket;
  opened: boolean;
  closed: boolean;
  messages: string[];
}

/** Where boot.ts leaves its socket (a property of the page's global object). */
export const EARLY_SOCKET = 'crownheadEarlySocket';

// Where this page's game lives on the server: "/" for a single board (and the
// first board of a club), "/boards/ID/" for a club's other boards. Every API
// path, download link and the socket are made from it, so the one-board page
// serves any board unchanged.

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

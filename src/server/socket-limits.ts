// What every WebSocket the service serves shares (the board page's ws.ts and
// broadcast.ts, the spectators' feed.ts, the friend's seat-ws.ts): how often
// a page is pinged (one that does not answer by the next ping is dropped) and
// how much may wait unsent for a page that stops reading before it is
// dropped, so a stalled page can neither pin memory nor be kept for ever.

export const SOCKET_DEFAULTS = {
  /** a ping every 30 s; no answer by the next one and the page is dropped */
  heartbeatMs: 30_000,
  /** 1 MiB unsent for one page and it is dropped (it reconnects and gets the state afresh) */
  maxBufferedBytes: 1024 * 1024,
} as const;

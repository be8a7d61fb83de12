// Shared by tests and benches: a page's WebSocket as a test sees it. Every
// message is queued (an event's patch folded into the state held, as the page
// folds it, so every event message has its `state`); `next` waits for the first unread one that matches,
// `command` sends a command and waits for its reply. Used by the service tests
// (test/server/helpers.ts) and the start-up bench (bench/startup.ts).

import WebSocket from 'ws';
import { foldState } from '../../src/protocol/state-patch.ts';

/** A server message as received (loosely typed on purpose: tests look at any field). */
export type Msg = { v: number; type: string; [k: string]: any };

/** A page's WebSocket: every message queued; `next` waits for the first unread one that matches. */
export class Client {
  readonly received: Msg[] = [];
  private readonly taken = new Set<Msg>();
  private waiters: { pred: (m: Msg) => boolean; resolve: (m: Msg) => void }[] = [];
  closed: { code: number; reason: string } | null = null;
  private closeWaiters: (() => void)[] = [];
  private nextId = 1;
  /** the state as the page would hold it (hello, state, each event's whole state or patch folded) */
  held: { snap: any; rev: number | null } = { snap: null, rev: null };
  /** events whose patch did not fit the state held (a page would ask for the state again) */
  unfitted = 0;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      const m = JSON.parse(isBinary ? '{}' : data.toString()) as Msg;
      if ((m.type === 'hello' || m.type === 'state') && m.state) this.held = { snap: m.state, rev: m.rev ?? null };
      else if (m.type === 'event' && (m.state || m.patch)) {
        const folded = foldState(this.held, { state: m.state, patch: m.patch, rev: m.rev });
        if (folded) m.state = (this.held = folded).snap;
        else this.unfitted++;
      }
      this.received.push(m);
      const w = this.waiters.find((x) => x.pred(m));
      if (w) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve(m);
      }
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      for (const w of this.closeWaiters.splice(0)) w();
    });
    ws.on('error', () => {});
  }

  static connect(url: string, options?: WebSocket.ClientOptions): Promise<Client> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, options);
      const c = new Client(ws);
      ws.once('open', () => resolve(c));
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    });
  }

  /** the first message (received earlier and not yet taken, or coming) that matches; it is then taken */
  next(pred: (m: Msg) => boolean = () => true, what = 'message', ms = 10_000): Promise<Msg> {
    const ready = this.received.find((m) => !this.taken.has(m) && pred(m));
    if (ready) {
      this.taken.add(ready);
      return Promise.resolve(ready);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `timed out waiting for ${what}; got ${this.received
                .filter((m) => !this.taken.has(m))
                .map((m) => m.type + (m.event ? ':' + m.event.type : ''))
                .join(', ')}`,
            ),
          ),
        ms,
      );
      this.waiters.push({
        pred,
        resolve: (m) => {
          clearTimeout(timer);
          this.taken.add(m);
          resolve(m);
        },
      });
    });
  }

  event(type: string, ms?: number): Promise<Msg> {
    return this.next((m) => m.type === 'event' && m.event.type === type, `event ${type}`, ms);
  }

  send(msg: unknown): void {
    this.ws.send(typeof msg === 'string' || Buffer.isBuffer(msg) ? msg : JSON.stringify(msg));
  }

  /** Sends a command and waits for its ok/error reply. */
  async command(command: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<Msg> {
    const id = `c${this.nextId++}`;
    this.send({ v: 1, type: 'command', id, command, ...extra });
    return this.next((m) => (m.type === 'ok' || m.type === 'error') && m.id === id, `reply to ${String(command.name)}`);
  }

  waitClosed(ms = 10_000): Promise<{ code: number; reason: string }> {
    if (this.closed) return Promise.resolve(this.closed);
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('timed out waiting for close')), ms);
      this.closeWaiters.push(() => {
        clearTimeout(t);
        resolve(this.closed!);
      });
    });
  }

  close(): void {
    this.ws.terminate();
  }
}

/** How many moves the game has after an event message, from its whole state or its patch's move list (undefined: it does not say). */
export function movesIn(m: Msg): number | undefined {
  if (m.state) return m.state.moves.length;
  const moves = m.patch?.moves as { keep: number; add: unknown[] } | undefined;
  return moves ? moves.keep + moves.add.length : undefined;
}

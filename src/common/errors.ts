// The one error shape every layer throws or returns: a `CrownheadError` with a
// stable `code` (kebab-case, part of the contract the page, the CLI and the
// HTTP API rely on) and a sentence for people. Each stage subclasses it with
// its own codes (FenError, PdnError, GameError…), so `instanceof` still tells
// the stage, and an outer layer passes a caught one on as it is instead of
// re-wrapping it. `errorBody` is the form it takes on the wire.

export abstract class CrownheadError<C extends string = string> extends Error {
  abstract override readonly name: string;

  constructor(
    readonly code: C,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** The wire form (HTTP bodies, WebSocket error messages, --json output). */
  toJSON(): { code: C; message: string } {
    return { code: this.code, message: this.message };
  }
}

/** The body of an API error: the code and sentence of a CrownheadError, else `internal` (the details go to the log, not the client). */
export function errorBody(e: unknown): { ok: false; code: string; message: string } {
  if (e instanceof CrownheadError) return { ok: false, code: e.code, message: e.message };
  return { ok: false, code: 'internal', message: 'internal error (see the service log)' };
}

export const isCrownheadError = (e: unknown): e is CrownheadError => e instanceof CrownheadError;

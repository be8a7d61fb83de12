// The one shape a parser answers with: `Result<T, E>`, the value read or the
// CrownheadError naming what is wrong with the input (chessops' Result;
// python-chess's invalid kept apart from illegal by the error's code).
// Input from outside — a FEN typed on the page, a flag, a time control, a
// journal, a tournament's event, a pairing list — is read with a `parse*`
// that returns one, so the caller decides what a bad input costs (a message,
// a count, a refusal) without a try. `unwrap` is for input the program wrote
// itself (constants, tests) or a caller that lets the error go up as it is.

import type { CrownheadError } from './errors.ts';

export type Result<T, E extends CrownheadError = CrownheadError> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E };

export const ok = <T>(value: T): { readonly ok: true; readonly value: T } => ({ ok: true, value });
export const err = <E extends CrownheadError>(error: E): { readonly ok: false; readonly error: E } => ({ ok: false, error });

/** The value read, or its error thrown as it is. */
export function unwrap<T, E extends CrownheadError>(r: Result<T, E>): T {
  if (r.ok) return r.value;
  throw r.error;
}

/** Runs a parser written with throws (its own error class only) as one that answers a Result; any other error goes up. */
export function attempt<T, E extends CrownheadError>(kind: abstract new (...args: never[]) => E, read: () => T): Result<T, E> {
  try {
    return ok(read());
  } catch (e) {
    if (e instanceof kind) return err(e);
    throw e;
  }
}

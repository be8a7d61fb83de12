// The HTTP API's one error shape, {ok: false, code, message}: what every
// route answers when it refuses or fails (http.ts, archive.ts). A leaf module,
// so any route file can use it without importing http.ts.

import type { Response } from 'express';

/** The body of every API error: a code a program can test, a message a person can read. */
export interface ApiErrorBody {
  ok: false;
  code: string;
  message: string;
}

/** Answers `status` with the API's error body. */
export function apiError(res: Response, status: number, code: string, message: string): void {
  res.status(status).json({ ok: false, code, message } satisfies ApiErrorBody);
}

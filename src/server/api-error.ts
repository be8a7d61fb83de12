// The HTTP API's one error shape, {ok: false, code, message} (the protocol's
// ApiErrorBody, src/protocol/v1.ts): what every route answers when it refuses
// or fails (http.ts, archive.ts). A leaf module, so any route file can use it
// without importing http.ts.

import type { Response } from 'express';
import type { ApiErrorBody } from '../protocol/v1.ts';

/** Answers `status` with the API's error body. */
export function apiError(res: Response, status: number, code: string, message: string): void {
  res.status(status).json({ ok: false, code, message } satisfies ApiErrorBody);
}

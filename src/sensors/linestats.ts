// Line accounting for one board connection: counts good lines and every kind
// of protocol error, and tracks the frame/heartbeat sequence number to detect
// gaps (lost lines), including the wrap 0xFFFF → 0x0000.

import type { Result } from '../common/result.ts';
import { MAX_SEQ, PROTOCOL_ERROR_REASONS, type BoardMessage, type ProtocolError, type ProtocolErrorReason } from './protocol.ts';

export interface LineFigures {
  /** lines that parsed into a message */
  linesOk: number;
  frames: number;
  heartbeats: number;
  /** protocol errors by kind */
  errors: Record<ProtocolErrorReason, number>;
  /** total protocol errors */
  errorTotal: number;
  /** number of seq discontinuities that looked like lost lines */
  gaps: number;
  /** lines lost in those gaps (sum of the seq jumps) */
  linesMissed: number;
  /** seq went backwards or jumped more than half the range: board restarted */
  restarts: number;
  lastSeq: number | null;
}

/** A seq jump of this many or more is taken as a board restart, not as lost lines. */
const RESTART_JUMP = 0x8000;

export class LineStats {
  private ok = 0;
  private frames = 0;
  private heartbeats = 0;
  private errors = Object.fromEntries(PROTOCOL_ERROR_REASONS.map((r) => [r, 0])) as Record<ProtocolErrorReason, number>;
  private gaps = 0;
  private missed = 0;
  private restarts = 0;
  private last: number | null = null;

  /**
   * Account one parsed line. Returns how many lines were missed just before
   * it (0 normally; >0 when its seq shows a gap).
   */
  record(read: Result<BoardMessage, ProtocolError>): number {
    if (!read.ok) {
      this.errors[read.error.reason]++;
      return 0;
    }
    const result = read.value;
    switch (result.type) {
      case 'frame':
        this.ok++;
        this.frames++;
        return this.seq(result.seq);
      case 'heartbeat':
        this.ok++;
        this.heartbeats++;
        return this.seq(result.seq);
      default:
        this.ok++;
        return 0;
    }
  }

  /** Feed one sequence number; returns the number of lines missed before it. */
  seq(seq: number): number {
    const prev = this.last;
    this.last = seq;
    if (prev === null) return 0;
    const jump = (seq - prev - 1) & MAX_SEQ; // lines between prev and seq
    if (jump === 0) return 0;
    if (jump >= RESTART_JUMP) {
      this.restarts++;
      return 0;
    }
    this.gaps++;
    this.missed += jump;
    return jump;
  }

  /** Forget the last seq (new connection or board reset): the next one starts afresh. */
  resetSequence(): void {
    this.last = null;
  }

  figures(): LineFigures {
    let errorTotal = 0;
    for (const r of PROTOCOL_ERROR_REASONS) errorTotal += this.errors[r];
    return {
      linesOk: this.ok,
      frames: this.frames,
      heartbeats: this.heartbeats,
      errors: { ...this.errors },
      errorTotal,
      gaps: this.gaps,
      linesMissed: this.missed,
      restarts: this.restarts,
      lastSeq: this.last,
    };
  }
}

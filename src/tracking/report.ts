// What the move tracker says, each thing once: the board status, the alert
// standing (the buzzer) and the quiet reminder, and the events they make for
// the session (a status, an alert or a reminder raised or cleared), with every
// other event of the step queued in order beside them. Pure bookkeeping: the
// tracker decides, this keeps what was said so nothing is said twice.

import type { Alert, BoardStatus, Reminder } from '../model/board.ts';
import type { TrackerEvent } from './state.ts';

export class TrackerReport {
  /** The events of the step so far (taken with take()). */
  events: TrackerEvent[] = [];
  status: BoardStatus = { kind: 'setup', fixes: [], message: '' };
  alert: Alert | null = null;
  reminder: Reminder | null = null;

  /** The events so far; the queue starts again. */
  take(): TrackerEvent[] {
    const e = this.events;
    this.events = [];
    return e;
  }

  /**
   * Sets the status (said only if it changed). `extra`: a reminder to ride on
   * an in-sync or moving status that has none of its own (a coin magnet-up, a
   * coin of the wrong colour).
   */
  setStatus(s: BoardStatus, t: number, extra: Reminder | null = null): void {
    // (The same reminder said again is the one standing: the status does not change for it.)
    if (extra && this.reminder && extra.message === this.reminder.message) extra = this.reminder;
    if ((s.kind === 'moving' || s.kind === 'in-sync') && !s.reminder && extra) s = { ...s, reminder: extra };
    // (While a crown is awaited the status carries no reminder: a coin upside down is said as one alone.)
    this.setReminder(s.kind === 'moving' || s.kind === 'in-sync' ? (s.reminder ?? null) : s.kind === 'awaiting-crown' ? extra : null, t);
    const was = this.status;
    const same =
      s.kind === was.kind &&
      ((s.kind !== 'moving' && s.kind !== 'in-sync') || (was as { reminder?: Reminder }).reminder === s.reminder) &&
      (s.kind !== 'awaiting-crown' || (was as { square: number }).square === s.square) &&
      (s.kind !== 'illegal' || (was as { alert: Alert }).alert === s.alert) &&
      (s.kind !== 'setup' || (was as { message: string }).message === s.message);
    this.status = s;
    if (!same) this.events.push({ type: 'status', t, status: s });
  }

  private setReminder(r: Reminder | null, t: number): void {
    if (r && this.reminder && r.message === this.reminder.message) return;
    if (!r && !this.reminder) return;
    this.reminder = r;
    this.events.push(r ? { type: 'reminder', t, reminder: r } : { type: 'reminder-cleared', t });
  }

  /** Raises an alert (the buzzer), unless the same one stands; the status becomes illegal. */
  raise(alert: Alert, t: number): void {
    const same = this.alert && this.alert.category === alert.category && this.alert.message === alert.message;
    if (same) return;
    this.alert = alert;
    this.events.push({ type: 'alert', t, alert });
    this.setStatus({ kind: 'illegal', alert }, t);
  }

  clearAlert(t: number): void {
    if (!this.alert) return;
    this.alert = null;
    this.events.push({ type: 'alert-cleared', t });
  }
}

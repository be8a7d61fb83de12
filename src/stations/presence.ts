// Whether a station is online, as one reader (the far board, the hub) takes
// its sealed status messages, so an old one sent again — a replayed
// "offline" to make a live station look gone, or an old "online" to hide that
// it went — changes nothing. An online status is taken only when newer than
// the last one taken; an offline one when newer than that, or when it is the
// will the last online status named (a will is sealed when its station
// connects, so its counter is older than what the station says after). Pure.

/** What became of one status message: taken, the one already taken (a retained copy read again), or refused as a replay. */
export type PresenceVerdict = 'taken' | 'same' | 'replay';

export class Presence {
  /** the last online status taken (its counter, and the counter of the will its connection left), or the last offline one */
  private last: { n: number; will?: number; online: boolean } | null = null;
  /** the will taken since (its counter), so a copy of it is the same message, not news */
  private tookWill: number | null = null;

  /** Takes (or not) a status message: its counter, online or not, and, online, the counter of its connection's will. */
  take(n: number, online: boolean, will?: number): PresenceVerdict {
    const l = this.last;
    if (!l) {
      this.last = { n, online, ...(will !== undefined ? { will } : {}) };
      return 'taken';
    }
    if (n === l.n || n === this.tookWill) return 'same';
    if (online) {
      if (n < l.n) return 'replay';
      this.last = { n, online, ...(will !== undefined ? { will } : {}) };
      this.tookWill = null;
      return 'taken';
    }
    if (n > l.n) {
      this.last = { n, online: false };
      return 'taken';
    }
    if (l.online && l.will === n) {
      this.last = { n: l.n, online: false };
      this.tookWill = n;
      return 'taken';
    }
    return 'replay';
  }
}

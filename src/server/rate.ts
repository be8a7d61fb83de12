// How many commands one page may send: a token bucket per page and kind of
// command (the game's commands, which may journal, search or start games; the
// simulated board's hand, cheap and quick by nature). A command past the rate
// is refused with a message saying so; the connection stays open.

import type { Command } from '../protocol/v1.ts';

export interface RateLimit {
  /** commands that may come at once */
  burst: number;
  /** commands a second after that */
  perSecond: number;
}

export interface CommandRates {
  /** every command but the hand's (default 20 at once, then 5 a second) */
  game: RateLimit;
  /** the simulated board's hand (default 1,000 at once, then 1,000 a second) */
  hand: RateLimit;
}

export const DEFAULT_COMMAND_RATES: CommandRates = { game: { burst: 20, perSecond: 5 }, hand: { burst: 1000, perSecond: 1000 } };

class TokenBucket {
  private tokens: number;
  private at: number;
  constructor(
    private readonly limit: RateLimit,
    private readonly now: () => number,
  ) {
    this.tokens = limit.burst;
    this.at = now();
  }
  take(): boolean {
    const t = this.now();
    this.tokens = Math.min(this.limit.burst, this.tokens + ((t - this.at) / 1000) * this.limit.perSecond);
    this.at = t;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** One page's allowance. `admit` says null when the command may run, else why not (for the error reply). */
export class CommandRate {
  private readonly game: TokenBucket;
  private readonly hand: TokenBucket;
  constructor(
    private readonly rates: CommandRates = DEFAULT_COMMAND_RATES,
    now: () => number = () => performance.now(),
  ) {
    this.game = new TokenBucket(rates.game, now);
    this.hand = new TokenBucket(rates.hand, now);
  }
  admit(command: Command): string | null {
    return this.admitNamed(command.name, command.name === 'hand' || command.name === 'hand-setup');
  }
  /** The same for anything named (a friend's seat's actions are game commands: src/server/seat-ws.ts). */
  admitNamed(name: string, hand = false): string | null {
    if ((hand ? this.hand : this.game).take()) return null;
    const r = hand ? this.rates.hand : this.rates.game;
    return `too many commands from this page: at most ${r.burst} at once, then ${r.perSecond} a second; "${name}" was not run (send it again in a moment)`;
  }
}

// The coin check's verdict: every coin of the set was put on one square in
// turn (bring-up.ts); a coin whose reading stands well below the others'
// median has a weak magnet or one glued proud, one that reads the other way
// from the rest has its magnet glued upside down, one that moves nothing has
// no magnet. Each is named by its number ("coin 7 of 24"), with what to do.
// Pure: the readings in, findings out.

/** A coin reading this far below the median of the set is weak. */
export const WEAK_COIN = 0.7;
/** Below this fraction of the median a coin counts as having no magnet at all. */
const NO_MAGNET = 0.2;

export interface CoinFinding {
  severity: 'fault' | 'warning';
  code: 'weak-coin' | 'reversed-coin' | 'unmagnetised-coin';
  /** the coins (numbered from 1) */
  coins: number[];
  message: string;
}

const list = (xs: readonly number[]) => (xs.length === 1 ? `${xs[0]}` : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`);

/**
 * The findings for a set of coins read on one square: `readings[k]` is coin
 * k + 1's rise from the square's zero (null: nothing moved), `sign` the way a
 * good coin moves this board's sensors (+1 up).
 */
export function judgeCoins(square: number, readings: readonly (number | null)[], sign: 1 | -1): CoinFinding[] {
  const n = readings.length;
  const along = readings.map((r) => (r === null ? 0 : r * sign));
  const good = along.filter((x) => x > 0).sort((a, b) => a - b);
  if (!good.length) return [];
  const median = good[Math.floor(good.length / 2)];
  const out: CoinFinding[] = [];
  const none = along.flatMap((x, k) => (Math.abs(x) < NO_MAGNET * median ? [k + 1] : []));
  const reversed = along.flatMap((x, k) => (x <= -NO_MAGNET * median ? [k + 1] : []));
  const weak = along.flatMap((x, k) => (x >= NO_MAGNET * median && x < WEAK_COIN * median ? [k + 1] : []));
  const of = `of ${n}`;
  for (const k of weak) {
    const pct = Math.round(100 * (1 - along[k - 1] / median));
    out.push({
      severity: 'warning',
      code: 'weak-coin',
      coins: [k],
      message: `Coin ${k} ${of} reads ${pct} % below the others (${Math.round(along[k - 1])} counts against a median of ${Math.round(median)} on ${square}): its magnet is weak or glued proud. Put it back in the middle of the square to be sure; then replace the magnet, or glue it flush in its pocket. A weak coin can read as empty off-centre, and a king with it as a man.`,
    });
  }
  if (reversed.length)
    out.push({
      severity: 'fault',
      code: 'reversed-coin',
      coins: reversed,
      message: `${reversed.length === 1 ? 'Coin' : 'Coins'} ${list(reversed)} ${of} ${reversed.length === 1 ? 'reads' : 'read'} below empty (${reversed.map((k) => Math.round(along[k - 1] * sign)).join(', ')} counts on ${square}) where the others read ${sign > 0 ? 'above' : 'below'}: ${reversed.length === 1 ? 'its magnet is' : 'their magnets are'} glued the other way up. Turn ${reversed.length === 1 ? 'it' : 'them'} over in the pocket (a stacked king would repel). On a polarity-coded set, check each colour's coins on their own.`,
    });
  if (none.length)
    out.push({
      severity: 'fault',
      code: 'unmagnetised-coin',
      coins: none,
      message: `${none.length === 1 ? 'Coin' : 'Coins'} ${list(none)} ${of} moved nothing on ${square} (the others ${Math.round(median)} counts): no magnet, or one far too weak (or the coin was not put down). Glue a magnet in, and check it again.`,
    });
  return out;
}

// The simulated hand's stack of held coins (what the hand picked up, in
// order, a king as 2): how a lift or a coin put down changes it. Pure; the
// reducer (state.ts) keeps the stack in the view state.

/**
 * The hand after an action: a lift adds what it took (`coins`) on top; a coin
 * put down (`place`, or `set` putting down `coins`) comes off the top. A coin
 * from outside the hand (nothing held) leaves it empty.
 */
export function handAfter(stack: readonly number[], action: 'lift' | 'place' | 'set', coins: number): number[] {
  if (action === 'lift') return coins > 0 ? [...stack, coins] : [...stack];
  const out = [...stack];
  let left = Math.max(0, coins);
  while (left > 0 && out.length) {
    const top = out.pop()!;
    if (top > left) out.push(top - left);
    left -= Math.min(top, left);
  }
  return out;
}

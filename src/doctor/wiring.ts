// The faults of the 32 hand-run sensor output wires, as the coin tests show
// them: two outputs crossed (a coin on 5 moves 7 and a coin on 7 moves 5), an
// output wire open (the floating mux input reads what the channel read before
// it left on the mux: it mirrors that square and ignores its own coin), and a
// settling ghost (every reading still carries a fraction of the channel read
// before it: a coin or a king lifts the square read next). Each is named with
// the mux channels to look at (mux.ts: "mux 0 C4") and what to do. Pure:
// observations in, findings out; verdict.ts runs it after the select-line check.

import type { Observations, Response } from './bring-up.ts';
import { channelName, readAfter, readBefore } from '../sensors/mux.ts';

export interface WiringFinding {
  severity: 'fault' | 'warning';
  code: 'crossed-outputs' | 'open-output' | 'settling-ghost';
  squares: number[];
  message: string;
}

export interface Wiring {
  findings: WiringFinding[];
  /** squares whose own response (or silence) these findings explain: no other finding is needed for them */
  explained: Set<number>;
  /** the fraction of the previous channel's level a reading carries, if a settling ghost was found */
  ghost: number | null;
}

/** A square moved "strongly" in a test if it moved at least this fraction of the test's largest move. */
const STRONG = 0.6;
/** a ghost carries between these fractions of the previous channel's rise (more is a wiring fault, less is not seen) */
const GHOST_RANGE: [number, number] = [0.04, STRONG];
/** from this fraction a king's ghost reads like a good part of a coin: a fault, not a warning */
const GHOST_FAULT = 0.35;
/** an open input mirrors the channel before it: the same rise within this fraction */
const MIRROR = 0.25;
/** an open input's zero level equals the previous channel's within this many counts */
const SAME_ZERO = 3;

const list = (xs: readonly number[]) => (xs.length === 1 ? `${xs[0]}` : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`);
const pct = (x: number) => `${Math.round(100 * x)} %`;

/** The squares that moved in a test by at least STRONG of its largest move, ascending. */
export function strongSet(r: Response): number[] {
  const top = Math.max(0, ...r.moved.map((m) => Math.abs(m.dev)));
  return r.moved
    .filter((m) => Math.abs(m.dev) >= STRONG * top)
    .map((m) => m.square)
    .sort((a, b) => a - b);
}

const ownDev = (r: Response | undefined) => r?.moved.find((m) => m.square === r.square)?.dev;

export function wiringFaults(obs: Observations, dead: Set<number>, sign: 1 | -1): Wiring {
  const out: Wiring = { findings: [], explained: new Set(), ghost: null };
  crossed(obs, dead, sign, out);
  open(obs, dead, out);
  ghost(obs, dead, sign, out);
  return out;
}

/** Outputs crossed: a coin on s showed (strongly) on one other square t only. */
function crossed(obs: Observations, dead: Set<number>, sign: 1 | -1, out: Wiring): void {
  const to = new Map<number, number>();
  for (const r of obs.responses) {
    if (dead.has(r.square)) continue;
    const strong = strongSet(r);
    const t = strong[0];
    if (strong.length !== 1 || t === r.square || dead.has(t)) continue;
    if (Math.sign(r.moved.find((m) => m.square === t)!.dev) !== sign) continue;
    to.set(r.square, t);
  }
  for (const [s, t] of [...to].sort((a, b) => a[0] - b[0])) {
    if (to.get(t) === s) {
      if (s > t) continue;
      const [a, b] = [channelName(s), channelName(t)];
      const pair = a.split(' C')[0] === b.split(' C')[0] ? `${a} ↔ C${b.split(' C')[1]}` : `${a} ↔ ${b}`;
      out.findings.push({
        severity: 'fault',
        code: 'crossed-outputs',
        squares: [s, t],
        message: `The outputs of ${s} and ${t} are swapped: ${pair} (a coin on ${s} moved ${t} and a coin on ${t} moved ${s}). Exchange the two output wires where they reach the mux, then run the check again.`,
      });
    } else {
      out.findings.push({
        severity: 'fault',
        code: 'crossed-outputs',
        squares: [s, t],
        message: `A coin on ${s} showed on ${t} only: the output of ${s} is wired to ${channelName(t)}, ${t}'s input, instead of ${channelName(s)}. Move it to ${channelName(s)} and check what is on ${channelName(t)}.`,
      });
    }
    out.explained.add(s).add(t);
  }
}

/**
 * An open output: the square ignores its own coin, and reads what the channel
 * before it read — a coin there moved this square as much, or (that square
 * untested) with no coin both read the same.
 */
function open(obs: Observations, dead: Set<number>, out: Wiring): void {
  for (let s = 1; s <= 32; s++) {
    const p = readBefore(s);
    if (dead.has(s) || dead.has(p) || out.explained.has(s)) continue;
    const own = obs.responses.find((r) => r.square === s);
    if (own && ownDev(own) !== undefined) continue; // it saw its own coin
    const before = obs.responses.find((r) => r.square === p);
    const dp = ownDev(before);
    const ds = before?.moved.find((m) => m.square === s)?.dev;
    let why: string;
    if (dp !== undefined && ds !== undefined && Math.abs(ds / dp - 1) <= MIRROR) {
      why = `a coin on ${p} moved ${s} just as much (${Math.round(dp)} and ${Math.round(ds)} counts)${own ? `, and a coin on ${s} moved nothing` : ''}`;
    } else if (own && dp === undefined && Math.abs(obs.zero[s - 1] - obs.zero[p - 1]) <= SAME_ZERO) {
      why = `a coin on ${s} moved nothing, and with no coin ${s} reads what ${p} reads (${Math.round(obs.zero[s - 1])} counts)`;
    } else continue;
    out.findings.push({
      severity: 'fault',
      code: 'open-output',
      squares: [s],
      message: `The output of ${s} is open: it reads what the channel before it read (${channelName(p)}, square ${p}), not its sensor on ${channelName(s)}: ${why}. Check the wire from the sensor under ${s} to ${channelName(s)} and its solder joints.`,
    });
    out.explained.add(s);
  }
}

/** A settling ghost: coins (or the king) lift the square read next by a steady fraction of their own rise. */
function ghost(obs: Observations, dead: Set<number>, sign: 1 | -1, out: Wiring): void {
  const seen: { from: number; to: number; ratio: number }[] = [];
  const look = (from: number, own: number | null | undefined, moved: readonly { square: number; dev: number }[] | undefined) => {
    const to = readAfter(from);
    const m = moved?.find((x) => x.square === to);
    if (own == null || !m || dead.has(to) || out.explained.has(to) || out.explained.has(from)) return;
    const ratio = m.dev / own;
    if (Math.sign(own) === sign && ratio > GHOST_RANGE[0] && ratio < GHOST_RANGE[1]) seen.push({ from, to, ratio });
  };
  for (const r of obs.responses) look(r.square, ownDev(r), r.moved);
  const k = obs.king;
  const n = seen.length;
  if (k) look(k.square, k.two, k.twoMoved);
  const kingSeen = seen.length > n ? seen[n] : null;
  if (!seen.length) return;
  const ratio = seen.map((x) => x.ratio).sort((a, b) => a - b)[Math.floor(seen.length / 2)];
  // one sighting (the king's) counts only if no single coin should have shown it and did not
  const contradicted = obs.responses.some((r) => {
    const d = ownDev(r);
    const to = readAfter(r.square);
    return d !== undefined && !dead.has(to) && Math.abs(ratio * d) > 40 && !r.moved.some((m) => m.square === to);
  });
  if (contradicted || (seen.length < 2 && !kingSeen)) return;
  const coins = [...new Set(seen.filter((x) => x !== kingSeen).map((x) => x.from))].sort((a, b) => a - b);
  const who = [coins.length ? `a coin on ${list(coins)}` : '', kingSeen ? `the king on ${kingSeen.from}` : '']
    .filter(Boolean)
    .join(' and ');
  const first = seen[0];
  out.ghost = ratio;
  out.findings.push({
    severity: ratio >= GHOST_FAULT ? 'fault' : 'warning',
    code: 'settling-ghost',
    squares: [...new Set(seen.map((x) => x.to))].sort((a, b) => a - b),
    message: `A settling ghost: ${who} also lifted the square read right after it on the mux (${first.from} → ${first.to}: ${channelName(first.from)} → C${channelName(first.to).split(' C')[1]}) by ${pct(ratio)} of its own rise: the mux output has not settled when the firmware reads it, so a king lifts the next channel's reading by ${pct(ratio)} of a king. Give it longer after switching channel: raise SCAN_SETTLE_US in firmware/src/config.h (now 10 µs) to 50 µs and flash again; if that is not enough, shorten the wires from the mux outputs to A0 and A1.`,
  });
}

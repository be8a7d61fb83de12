// The doctor's report as text: the verdict first, then each finding with what
// to do, the magnet the readings fit and the king's margin, and the per-square table (zero level,
// noise, one coin's rise); a JSON copy of the observations closes it, so a bug
// report carries the numbers as well as the words. Pure.

import type { BoardIdentity } from '../sensors/protocol.ts';
import type { DoctorRun } from './run.ts';

const VERDICT = {
  ok: 'Verdict: the board is good. Every sensor tried reads a coin where it stands.',
  warnings: 'Verdict: the board works, with warnings (below).',
  faults: 'Verdict: faults found (below): fix them and run `crownhead doctor` again.',
} as const;

export function formatReport(identity: BoardIdentity, run: DoctorRun, at: Date): string {
  const { verdict: v, observations: o } = run;
  const lines: string[] = [
    `Crownhead doctor report — ${at.toISOString()}`,
    `Board ${identity.id}, firmware ${identity.fw}, protocol ${identity.proto}`,
    `Sensors: ${v.sensor.key} (${v.sensor.detected ? 'told from the readings' : 'as given'})`,
    '',
    VERDICT[v.verdict],
  ];
  for (const f of v.findings) lines.push(`  [${f.severity}] ${f.message}`);
  const m = v.magnet;
  if (m) {
    const flip = Number.isNaN(m.flip) ? 'not measured' : `${m.flip.toFixed(2)} of a step`;
    lines.push('', `Magnets: a king's second coin adds ${m.stack.toFixed(2)} of a coin; a coin upside down reads ${flip}.`);
    lines.push(
      m.fits.length
        ? `  That fits a ${m.fits[0].replace('x', ' × ')} mm disc${m.fits.length > 1 ? ` (also ${m.fits.slice(1).join(', ')})` : ''}, ${Math.round((m.strength ?? 0) * 100)} % of an N35 one's strength on a typical sensor.`
        : '  That fits none of the discs in hardware/README.md: measure the magnets, and see the magnet table there.',
    );
    if (m.kingMargin !== null)
      lines.push(
        `  A king 3 mm off-centre reads ${m.kingMargin > 0 ? `${m.kingMargin} counts above` : m.kingMargin < 0 ? `${-m.kingMargin} counts below` : 'the same as'} a centred man on ${o.king!.square}.`,
      );
    if (!Number.isNaN(m.flip)) {
      const k = o.king!;
      const noise = o.noise[k.square - 1] ?? 0;
      lines.push(
        `  Upside down is ${Math.abs(k.flipped ?? 0).toFixed(0)} counts from empty on ${k.square}, ${noise > 0 ? `${(Math.abs(k.flipped ?? 0) / noise).toFixed(0)} × its noise` : 'far above its noise'}.`,
      );
    }
  }
  lines.push('', 'square  zero  noise  one coin  status');
  for (const s of v.squares.filter((x) => x.status !== 'untested')) {
    lines.push(
      `${String(s.square).padStart(6)}  ${String(s.zero).padStart(4)}  ${s.noise.toFixed(1).padStart(5)}  ${(s.gain === null ? '—' : (s.gain > 0 ? '+' : '') + s.gain).padStart(8)}  ${s.status}`,
    );
  }
  const round = (_k: string, x: unknown) => (typeof x === 'number' && !Number.isInteger(x) ? Math.round(x * 10) / 10 : x);
  lines.push('', 'Observations (JSON):', JSON.stringify({ identity, observations: o, verdict: v.verdict, select: v.select }, round));
  return lines.join('\n');
}

// `bench/engine.ts --sprt REF`: the sequential test of this tree's engine
// against another git revision's (src/engine-host/sprt.ts has the statistics
// and the loop), both as `crownhead engine` child processes, each pinned to a
// core of its own, pairs of games from the open ACF ballots until the test
// decides. A tool, not a figure: `npm run bench` leaves it out.

import { execSync } from 'node:child_process';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BALLOTS } from '../src/rules/index.ts';
import { eloText, ProtocolPlayer } from '../src/engine-host/match.ts';
import { DEFAULT_SPRT, runSprt, sprtLimits } from '../src/engine-host/sprt.ts';

/** The flags it reads (bench/engine.ts parses them). */
export interface SprtFlags {
  readonly elo0?: string;
  readonly elo1?: string;
  readonly alpha?: string;
  readonly beta?: string;
  readonly ms?: string;
  readonly nodes?: string;
  readonly grace?: string;
  readonly 'max-pairs'?: string;
}

/**
 * --sprt REF: the sequential test of this tree against git revision REF, both
 * as `crownhead engine --no-book` child processes (REF's unpacked beside this
 * tree's node_modules), each pinned to one core (taskset, when there is one).
 */
export async function sprt(ref: string, values: SprtFlags): Promise<void> {
  const bounds = {
    elo0: Number(values.elo0 ?? DEFAULT_SPRT.elo0),
    elo1: Number(values.elo1 ?? DEFAULT_SPRT.elo1),
    alpha: Number(values.alpha ?? DEFAULT_SPRT.alpha),
    beta: Number(values.beta ?? DEFAULT_SPRT.beta),
  };
  const limit = values.nodes ? { nodes: Number(values.nodes) } : { ms: Number(values.ms ?? 100) };
  const root = resolve(import.meta.dirname, '..');
  const dir = mkdtempSync(join(tmpdir(), 'crownhead-sprt-'));
  execSync(`git -C ${JSON.stringify(root)} archive ${JSON.stringify(ref)} bin src package.json | tar -x -C ${JSON.stringify(dir)}`);
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  let pin = false;
  try {
    execSync('taskset -c 0 true', { stdio: 'ignore' });
    pin = true;
  } catch {
    // no taskset: the system spreads them
  }
  const engine = (name: string, home: string, core: number) => {
    const args = [join(home, 'bin/crownhead.js'), 'engine', '--no-book'];
    const [cmd, argv] = pin ? ['taskset', ['-c', String(core), process.execPath, ...args]] : [process.execPath, args];
    return new ProtocolPlayer(name, cmd as string, argv as string[], { cwd: home, env: { ...process.env, CROWNHEAD_FROM_SOURCE: '1' } });
  };
  const test = engine('this', root, 0),
    base = engine(ref, dir, 1);
  const open = BALLOTS.filter((b) => b.status !== 'barred').map((b) => b.number);
  const { lower, upper } = sprtLimits(bounds);
  console.log(
    `SPRT: this against ${ref}, Elo [${bounds.elo0}, ${bounds.elo1}], α ${bounds.alpha} β ${bounds.beta} (LLR bounds ${lower.toFixed(2)}, ${upper.toFixed(2)}), ${'ms' in limit ? `${limit.ms} ms` : `${limit.nodes} nodes`} a move, ${pin ? 'each engine on its own core' : 'unpinned'}`,
  );
  const losses: string[] = [];
  const s = await runSprt(
    test,
    base,
    open,
    limit,
    bounds,
    Number(values['max-pairs'] ?? 2000),
    (st, games) => {
      for (const g of games) if (/took \d+ ms/.test(g.reason)) losses.push(g.reason);
      const n = st.pairs.reduce((a, b) => a + b, 0);
      console.log(
        `  pair ${n} (ballot ${games[0]!.ballot}): pairs ${st.pairs.join(' ')}, +${st.wins} =${st.draws} -${st.losses}, LLR ${st.llr.toFixed(2)}`,
      );
    },
    Number(values.grace ?? 1000),
  );
  await test.close();
  await base.close();
  console.log(
    `SPRT verdict: ${s.verdict === 'undecided' ? 'undecided (cap reached)' : s.verdict === 'H1' ? `H1 (at least ${bounds.elo1} Elo)` : `H0 (not ${bounds.elo1} Elo)`}; pairs ${s.pairs.join(' ')}; ${eloText({ games: s.wins + s.draws + s.losses, ...s })}; losses on time ${losses.length}`,
  );
}

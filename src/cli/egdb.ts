// `crownhead egdb build [--pieces 4|5]` and `crownhead egdb status`: the
// endgame database on demand — the 5-piece one is built only when asked (it
// takes long), with progress on standard error; status says what is built,
// where, and its size.

import { statSync } from 'node:fs';
import { EgdbLayout } from '../engine/egdb-layout.ts';
import { buildPackedEgdb, defaultCacheDir, egdbFile, forgetEgdbs, loadEgdb, openPackedEgdb } from '../engine-host/egdb-cache.ts';
import { EGDB_USAGE } from './usage.ts';
import { parse, UsageError } from './args.ts';
import type { Io } from './io.ts';

const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;
const secs = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

export function egdbCommand(argv: string[], io: Io): number {
  const { values, positionals } = parse(argv, { pieces: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, EGDB_USAGE);
  if (values.help) {
    io.out(
      `${EGDB_USAGE}\nThe engine's endgame database: exact values (win or loss in so many plies, or draw) of every position\nwith few pieces. The 4-piece one (15 MB, about half a minute) is built on first use; the 5-piece one\nonly by "crownhead egdb build --pieces 5" (136 MB compressed; 6 to 15 minutes, 2.4 GB of memory while it builds;\na build stopped part-way resumes from the slices it solved).\nThe engine uses the 5-piece one when it is there and whole, else the 4-piece one. Both live in\n${'$'}CROWNHEAD_CACHE (default ~/.cache/crownhead); a damaged file is refused, never trusted.`,
    );
    return 0;
  }
  const [action, extra] = positionals;
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"\n${EGDB_USAGE}`);
  const dir = defaultCacheDir();
  if (action === 'status') {
    if (values.pieces !== undefined) throw new UsageError(`status takes no --pieces (it lists every database)\n${EGDB_USAGE}`);
    return status(dir, io);
  }
  if (action !== 'build')
    throw new UsageError(`${action === undefined ? 'say build or status' : `unknown action "${action}" (build or status)`}\n${EGDB_USAGE}`);
  const pieces = values.pieces === undefined ? 5 : Number(values.pieces);
  if (values.pieces !== undefined && values.pieces !== '4' && values.pieces !== '5')
    throw new UsageError(`--pieces must be 4 or 5, not "${values.pieces}"\n${EGDB_USAGE}`);
  const t0 = performance.now();
  if (pieces === 4) {
    const db = loadEgdb(4, dir, (m) => io.err(m));
    io.out(`4-piece endgame database: ${egdbFile(4, dir)}, ${mb(statSync(egdbFile(4, dir)).size)}, ${db.size} indices`);
    return 0;
  }
  io.err(`building the ${pieces}-piece endgame database into ${egdbFile(pieces, dir)} (${new EgdbLayout(pieces).size} indices)`);
  const built = buildPackedEgdb(
    pieces,
    dir,
    (done, total, name) => io.err(`slice ${done}/${total} ${name} solved, ${secs(performance.now() - t0)} elapsed`),
    (m) => io.err(m),
  );
  forgetEgdbs();
  const check = openPackedEgdb(built.file);
  if (typeof check === 'string') throw new Error(`the database just written to ${built.file} does not read back: ${check}`);
  io.out(
    `${pieces}-piece endgame database: ${built.file}, ${mb(built.bytes)}; solved in ${secs(built.solveMs)}, compressed in ${secs(built.packMs)}; longest result ${built.maxValue - 1} plies`,
  );
  return 0;
}

function status(dir: string, io: Io): number {
  for (const pieces of [4, 5]) {
    const file = egdbFile(pieces, dir);
    let size: number;
    try {
      size = statSync(file).size;
    } catch {
      io.out(
        `${pieces} pieces: not built (${file})${pieces === 5 ? '; build it with crownhead egdb build --pieces 5' : '; built on first use'}`,
      );
      continue;
    }
    if (pieces === 5) {
      const db = openPackedEgdb(file);
      io.out(
        typeof db === 'string'
          ? `5 pieces: ${file}, ${mb(size)}, DAMAGED (${db}): not used`
          : `5 pieces: ${file}, ${mb(size)}, whole; in use`,
      );
    } else io.out(`4 pieces: ${file}, ${mb(size)}`);
  }
  return 0;
}

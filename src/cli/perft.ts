// `crownhead perft DEPTH [--fen FEN] [--divide]`

import { parseFen, perft, perftDivide, legalMoves, moveText, START } from '../rules/index.ts';
import { PERFT_USAGE } from './usage.ts';
import { parse, UsageError, wholeNumber } from './args.ts';
import type { Io } from './io.ts';

export function perftCommand(argv: string[], io: Io): number {
  const { values, positionals } = parse(
    argv,
    { fen: { type: 'string' }, divide: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    PERFT_USAGE,
  );
  if (values.help) {
    io.out(
      `${PERFT_USAGE}\nCounts the positions DEPTH plies ahead (a multi-jump is one move; a king's different routes count separately).\nThe node count is the last line; --divide first prints one line per first move.`,
    );
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError(`perft needs exactly one DEPTH\n${PERFT_USAGE}`);
  const depth = wholeNumber(positionals[0], 'DEPTH', 0, 30);
  let pos = START;
  if (values.fen !== undefined) {
    const read = parseFen(values.fen);
    if (!read.ok) throw new UsageError(read.error.message);
    pos = read.value;
  }
  const t0 = performance.now();
  let total: number;
  if (values.divide && depth > 0) {
    const legal = legalMoves(pos);
    total = 0;
    for (const { move, nodes } of perftDivide(pos, depth)) {
      io.out(`${moveText(move, legal)} ${nodes}`);
      total += nodes;
    }
  } else total = perft(pos, depth);
  const ms = performance.now() - t0;
  io.err(`perft ${depth}: ${total} nodes in ${(ms / 1000).toFixed(2)} s (${(total / Math.max(ms, 1e-3) / 1000).toFixed(1)} M nodes/s)`);
  io.out(String(total));
  return 0;
}

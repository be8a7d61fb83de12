// `crownhead pdn check FILE…` and `crownhead pdn format FILE…`

import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { readPdn, makePdnFile } from '../pdn/index.ts';
import { PDN_USAGE } from './usage.ts';
import { parse, UsageError } from './args.ts';
import type { Io } from './io.ts';

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new UsageError(
      `cannot read ${file}: ${err.code === 'ENOENT' ? 'no such file' : err.code === 'EISDIR' ? 'it is a directory' : err.message}`,
    );
  }
}

export function pdnCommand(argv: string[], io: Io): number {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    io.out(PDN_USAGE);
    return sub === undefined ? 2 : 0;
  }
  const { values, positionals } = parse(rest, { warnings: { type: 'boolean' } }, PDN_USAGE);
  if (positionals.length === 0) throw new UsageError(`pdn ${sub} needs at least one FILE\n${PDN_USAGE}`);
  if (sub === 'check') {
    let rejected = 0;
    for (const file of positionals) {
      const { games, errors } = readPdn(readText(file));
      const moves = games.reduce((n, g) => n + g.moves.length, 0);
      const warnings = games.flatMap((g) => g.warnings.map((w) => `game ${g.index}: ${w}`));
      rejected += errors.length;
      io.out(
        `${basename(file)}: ${games.length + errors.length} games, ${moves} moves, ${errors.length} error${errors.length === 1 ? '' : 's'}` +
          (warnings.length ? `, ${warnings.length} warning${warnings.length === 1 ? '' : 's'}` : ''),
      );
      for (const e of errors) io.out(`  error: ${e.message}`);
      if (values.warnings) for (const w of warnings) io.out(`  warning: ${w}`);
    }
    return rejected > 0 ? 1 : 0;
  }
  if (sub === 'format') {
    let rejected = 0;
    const chunks: string[] = [];
    for (const file of positionals) {
      const { games, errors } = readPdn(readText(file));
      for (const e of errors) io.err(`${basename(file)}: ${e.message}`);
      rejected += errors.length;
      if (games.length) chunks.push(makePdnFile(games));
    }
    io.out(chunks.join('\n').replace(/\n$/, ''));
    return rejected > 0 ? 1 : 0;
  }
  throw new UsageError(`unknown pdn command "${sub}"\n${PDN_USAGE}`);
}

// The `crownhead` command line: dispatches subcommands. Each subcommand takes
// its arguments and an Io (so tests run it in-process) and returns an exit code;
// every error is one line on standard error, naming what is wrong.

import { BUNDLED, VERSION } from '../build-info.ts';
import { UsageError } from './args.ts';
import { stdio, type Io } from './io.ts';
import { didYouMean } from './suggest.ts';
import {
  ANALYSE_USAGE,
  BESTMOVE_USAGE,
  DOCTOR_USAGE,
  EGDB_USAGE,
  ENGINE_USAGE,
  HUB_USAGE,
  PDN_USAGE,
  PERFT_USAGE,
  REPLAY_USAGE,
  SERVE_USAGE,
  STATION_USAGE,
} from './usage.ts';

export type { Io } from './io.ts';

type Command = (argv: string[], io: Io) => number | Promise<number>;

// Each subcommand is loaded only when run: --help and typos load none of them.
const COMMANDS: Record<string, { run: Command; help: string }> = {
  perft: { run: async (argv, io) => (await import('./perft.ts')).perftCommand(argv, io), help: PERFT_USAGE },
  pdn: { run: async (argv, io) => (await import('./pdn.ts')).pdnCommand(argv, io), help: PDN_USAGE },
  replay: { run: async (argv, io) => (await import('./replay.ts')).replayCommand(argv, io), help: REPLAY_USAGE },
  bestmove: { run: async (argv, io) => (await import('./engine.ts')).bestmoveCommand(argv, io), help: BESTMOVE_USAGE },
  analyse: { run: async (argv, io) => (await import('./engine.ts')).analyseCommand(argv, io), help: ANALYSE_USAGE },
  engine: { run: async (argv, io) => (await import('./engine.ts')).engineCommand(argv, io), help: ENGINE_USAGE },
  egdb: { run: async (argv, io) => (await import('./egdb.ts')).egdbCommand(argv, io), help: EGDB_USAGE },
  serve: { run: async (argv, io) => (await import('./serve.ts')).serveCommand(argv, io), help: SERVE_USAGE },
  doctor: { run: async (argv, io) => (await import('./doctor.ts')).doctorCommand(argv, io), help: DOCTOR_USAGE },
  station: { run: async (argv, io) => (await import('./station.ts')).stationCommand(argv, io), help: STATION_USAGE },
  hub: { run: async (argv, io) => (await import('./hub.ts')).hubCommand(argv, io), help: HUB_USAGE },
};

export const USAGE = `crownhead: a physical-board companion for American checkers

Commands:
${Object.values(COMMANDS)
  .map((c) =>
    c.help
      .split('\n')
      .map((l) => '  ' + l.replace(/^usage: /, '').replace(/^ {7}/, ''))
      .join('\n'),
  )
  .join('\n')}

Run "crownhead COMMAND --help" for more; "crownhead --version" for the version.`;

/** "crownhead 0.1.0 (built bundle, Node v20.20.2)". */
export const versionLine = (): string => `crownhead ${VERSION} (${BUNDLED ? 'built bundle' : 'from source'}, Node ${process.version})`;

export async function main(argv: string[], io: Io = stdio): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(USAGE);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-V' || name === 'version') {
    io.out(versionLine());
    return 0;
  }
  const cmd = COMMANDS[name];
  if (!cmd) {
    const hint = name.startsWith('-') ? '' : didYouMean(name, Object.keys(COMMANDS));
    io.err(`crownhead: unknown ${name.startsWith('-') ? 'option' : 'command'} "${name}"${hint}\n\n${USAGE}`);
    return 2;
  }
  try {
    return await cmd.run(rest, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`crownhead ${name}: ${e.message}`);
      return 2;
    }
    throw e;
  }
}

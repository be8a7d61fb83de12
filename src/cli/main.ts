// The `crownhead` command line: dispatches subcommands. Each subcommand takes
// its arguments and an Io (so tests run it in-process) and returns an exit code.

import { UsageError } from './args.ts';
import { perftCommand, PERFT_USAGE } from './perft.ts';
import { pdnCommand, PDN_USAGE } from './pdn.ts';
import { replayCommand, REPLAY_USAGE } from './replay.ts';

export interface Io {
  out(line: string): void;
  err(line: string): void;
}

const stdio: Io = {
  out: (l) => process.stdout.write(l + '\n'),
  err: (l) => process.stderr.write(l + '\n'),
};

type Command = (argv: string[], io: Io) => number | Promise<number>;

const COMMANDS: Record<string, { run: Command; help: string }> = {
  perft: { run: perftCommand, help: PERFT_USAGE },
  pdn: { run: pdnCommand, help: PDN_USAGE },
  replay: { run: replayCommand, help: REPLAY_USAGE },
  serve: { run: async (argv, io) => (await import('./serve.ts')).serveCommand(argv, io), help: 'usage: crownhead serve [--board SPEC] [--host ADDR] [--port N] [--games DIR] [options]' },
};

export const USAGE = `crownhead: a physical-board companion for American checkers

Commands:
${Object.values(COMMANDS).map((c) => c.help.split('\n').map((l) => '  ' + l.replace(/^usage: /, '').replace(/^ {7}/, '')).join('\n')).join('\n')}

Run "crownhead COMMAND --help" for more.`;

export async function main(argv: string[], io: Io = stdio): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(USAGE);
    return name === undefined ? 2 : 0;
  }
  const cmd = COMMANDS[name];
  if (!cmd) {
    io.err(`crownhead: unknown command "${name}"\n\n${USAGE}`);
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

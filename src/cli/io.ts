// Where a subcommand writes: standard output for results, standard error for
// messages. Each subcommand takes an Io, so tests run them in-process.

export interface Io {
  out(line: string): void;
  err(line: string): void;
  /** standard output is a terminal (a live view may redraw in place); absent: not */
  tty?: boolean;
}

export const stdio: Io = {
  out: (l) => process.stdout.write(l + '\n'),
  err: (l) => process.stderr.write(l + '\n'),
  tty: process.stdout.isTTY === true,
};

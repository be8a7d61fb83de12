// Runs the `crownhead` command line in-process, collecting its lines.
import { main, type Io } from '../../src/cli/main.ts';

export async function run(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [],
    err: string[] = [];
  const io: Io = { out: (l) => out.push(...l.split('\n')), err: (l) => err.push(...l.split('\n')) };
  const code = await main(argv, io);
  return { code, out, err };
}

// The writer the kill -9 test runs as a child process: opens (or creates)
// the scripted tournament's journal in the folder given, then appends the
// scripted events one after another for ever, printing "ack N" (N events in
// the journal) after each append returns, that is once it is fsynced.

import { existsSync } from 'node:fs';
import { tournamentFile } from '../../src/tournament/index.ts';
import { TournamentJournal } from '../../src/tournament/journal.ts';
import { scriptedEvent } from './helpers.ts';

const dir = process.argv[2];
const file = tournamentFile(dir, 'kill9');
const first = scriptedEvent(null, 0);
if (first.t !== 'create') throw new Error('the script starts with a create event');
const journal = existsSync(file) ? TournamentJournal.open(file) : TournamentJournal.create(dir, first);
for (;;) {
  const n = journal.state.log.length;
  journal.append(scriptedEvent(journal.state, n));
  process.stdout.write(`ack ${n + 1}\n`);
}

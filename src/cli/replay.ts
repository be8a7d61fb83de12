// `crownhead replay FILE [--pdn OUT]`: runs a session recording (see
// src/tracking/recording.ts) through tracking at full speed and prints the game
// as PDN plus every alert and every notice (reminders and info, with their
// level) with its frame time: all the board said — how a bug report from real
// hardware is reproduced, and how tests pin real sessions down.

import { readFileSync, writeFileSync } from 'node:fs';
import { GameSession } from '../game/session.ts';
import { readRecording, RecordingError } from '../tracking/recording.ts';
import { REPLAY_USAGE } from './usage.ts';
import { parse, UsageError } from './args.ts';
import type { Io } from './io.ts';

export interface ReplayResult {
  pdn: string;
  alerts: { t: number; category: string; message: string }[];
  /** every quiet notice, as the service says it: reminders (a coin upside down, a move left incomplete) and info */
  notices: { t: number; level: 'reminder' | 'info'; message: string }[];
  frames: number;
  games: number;
}

/**
 * Replays a recording's text through a fresh session (pure: its clock is the
 * recording's start time from the header plus each item's time, so the PDN
 * carries the date the game was played; alert times are from the recording's start).
 */
export function replayRecording(text: string, opts: { tournament?: boolean } = {}): ReplayResult {
  let t = 0;
  let epoch = 0;
  const alerts: ReplayResult['alerts'] = [];
  const notices: ReplayResult['notices'] = [];
  // (Made once the header is read: a session recorded in tournament mode replays in tournament mode.)
  let tournament = opts.tournament;
  let made: GameSession | null = null;
  const sessionFor = (): GameSession => {
    if (made) return made;
    const s = new GameSession({ now: () => epoch + t, tournament: !!tournament });
    s.on((e) => {
      if (e.type === 'alert') alerts.push({ t, category: e.alert.category, message: e.alert.message });
      if (e.type === 'notice') notices.push({ t, level: e.level, message: e.say });
    });
    return (made = s);
  };
  let frames = 0,
    games = 0;
  let started = false;
  for (const item of readRecording(text)) {
    if (item.kind === 'header') {
      const when = Date.parse(String(item.header.started ?? ''));
      if (!Number.isNaN(when)) epoch = when;
      if (tournament === undefined && typeof item.header.tournament === 'boolean') tournament = item.header.tournament;
      continue;
    }
    const session = sessionFor();
    t = item.t;
    if (item.kind === 'new-game') {
      session.newGame({ fen: item.fen, rules: item.options });
      games++;
      started = true;
    } else if (item.kind === 'board') {
      session.boardStatus(item.connected, 'recording', item.connected ? 'board back' : 'board lost');
    } else {
      if (!started) {
        session.newGame({});
        games++;
        started = true;
      }
      session.pushFrame(item.t, item.readings);
      frames++;
    }
  }
  return { pdn: sessionFor().pdn(), alerts, notices, frames, games };
}

export function replayCommand(argv: string[], io: Io): number {
  const { values, positionals } = parse(
    argv,
    { pdn: { type: 'string' }, tournament: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    REPLAY_USAGE,
  );
  if (values.help) {
    io.out(REPLAY_USAGE);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError(`replay needs exactly one recording FILE\n${REPLAY_USAGE}`);
  let text: string;
  try {
    text = readFileSync(positionals[0], 'utf8');
  } catch (e) {
    throw new UsageError(
      `cannot read ${positionals[0]}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`,
    );
  }
  let result: ReplayResult;
  try {
    result = replayRecording(text, values.tournament ? { tournament: true } : {});
  } catch (e) {
    if (e instanceof RecordingError) throw new UsageError(`${positionals[0]}: ${e.message}`);
    throw e;
  }
  for (const a of result.alerts) io.out(`alert at ${(a.t / 1000).toFixed(2)} s [${a.category}]: ${a.message}`);
  for (const n of result.notices) io.out(`${n.level} at ${(n.t / 1000).toFixed(2)} s: ${n.message}`);
  io.err(`${result.frames} frames, ${result.alerts.length} alert${result.alerts.length === 1 ? '' : 's'}`);
  if (values.pdn) {
    try {
      writeFileSync(values.pdn, result.pdn);
    } catch (e) {
      throw new UsageError(`cannot write ${values.pdn}: ${(e as Error).message}`);
    }
  }
  io.out(result.pdn.trimEnd());
  return 0;
}

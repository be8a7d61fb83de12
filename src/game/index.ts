// The game stage: the session (session.ts) wiring the game at the table
// (table.ts: rules Game, tags, clocks, draws, results, players' commands) to
// the board tracker, the coach (the computer opponent and hints through an
// injected engine: computer.ts) and the journal; the view of it (view.ts:
// snapshot, move records, PDN, words); the tag validator (tags.ts), and
// clocks. The journal and the games directory are the storage stage's
// (src/storage/).

export * from './errors.ts';
export * from './tags.ts';
export * from './table.ts';
export * from './ids.ts';
export * from './view.ts';
export * from './session.ts';
export * from './clock.ts';
export * from './computer.ts';

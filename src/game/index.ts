// The game stage: the game at the table (session: rules Game + tracker + tags,
// clocks, draws, results, players' commands, the computer opponent and the
// coach's hints through an injected engine: computer.ts), its journal and the
// games directory (crash-safe storage: journal, store, choosing the game to
// resume), and clocks.

export * from './session.ts';
export * from './clock.ts';
export * from './journal.ts';
export * from './store.ts';
export * from './computer.ts';
export * from './resume.ts';

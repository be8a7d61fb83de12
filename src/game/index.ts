// The game stage: the game at the table (session: rules Game + tracker + tags,
// clocks, draws, results, players' commands, the computer opponent and the
// coach's hints through an injected engine: computer.ts) and clocks. Its
// journal and the games directory are the storage stage's (src/storage/).

export * from './session.ts';
export * from './clock.ts';
export * from './computer.ts';

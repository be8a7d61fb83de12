// Crownhead's checkers engine: pure and deterministic (time is an input).
// The evaluation (eval), the search with its hash table and time management
// (search), levels 1–10 and the `think` entry point (levels), and game
// analysis that marks mistakes and blunders (analyse), and the endgame
// database for every position of up to 4 pieces (win/draw/loss and distance)
// from our retrograde solver, cached on disk with a checksum (egdb). The
// search knows the 40-move rule (SearchLimits.quietPlies). The opening book
// from the corpus and random ACF ballot starts (book). The evaluation's
// weights are one table (eval.ts WEIGHTS); `npm run tune` (bench/tune.ts)
// refits them to the corpus' results and `npm run tune -- --write` writes them
// back if they do not lose strength. The worker_thread
// wrapper lives in worker.ts / client.ts and is not exported here.

export * from './eval.ts';
export * from './search.ts';
export * from './levels.ts';
export * from './analyse.ts';
export * from './egdb.ts';
export * from './book.ts';

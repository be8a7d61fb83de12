// Crownhead's checkers engine: pure and deterministic (time is an input; no
// files, no environment). The port every caller uses — one request, one
// result, one Clock (port) — the evaluation (eval), the search (search) on its
// own allocation-free move generator and incremental keys (moves, checked
// against the rules core) with a bucketed hash table (tt) and the time policy
// as pure functions (time), levels 1–10 and the `think` entry point
// (levels), the scheduler that takes one search at a time by purpose (jobs),
// thinking on the opponent's time: the position after the expected reply (ponder),
// the one game analysis that marks mistakes and blunders (analyse), the
// endgame database for every position of up to 4 pieces (win/draw/loss and
// distance) from our retrograde solver, serialized with a checksum (egdb; its
// index egdb-layout), or of up to 5 pieces compressed in blocks (egdb-pack). The
// search knows the 40-move rule (SearchLimits.quietPlies). The opening book
// built from PDN texts and random ACF ballot starts (book). The evaluation's
// weights are data: one table of named weights (eval-weights.ts, read by
// eval.ts as WEIGHTS) and the pattern tables of the men of small areas
// (eval-patterns.ts; their data eval-patterns-data.ts, generated from data/engine/eval-patterns.json.gz by
// bench/patterns-data.ts); `npm run tune` (bench/tune.ts) fits them to self-play and corpus results and
// `npm run tune -- --write` writes them there (kept when a match against the
// previous table says so: bench/engine.ts --versus). The learned evaluation
// network (net: its file format and its accumulators kept move by move by the
// search, summed in WebAssembly SIMD by net-simd; the shipped one net-data.ts,
// generated from data/engine/net.bin, trained by bench/net-train.ts on
// bench/net-data.ts' self-play) is an option of the search (SearchOptions.net)
// and of think (EngineTools.net; levels.ts NET_FROM_LEVEL says where it plays). The engine's edge — the worker_thread and
// its client, the endgame database's disk cache, the book read from
// data/corpus, `crownhead engine`'s line protocol (line-engine) and the match
// harness (match) — lives in src/engine-host/ and is not exported here.

export * from './eval.ts';
export * from './eval-patterns.ts';
export * from './net.ts';
export * from './search.ts';
export * from './time.ts';
export * from './levels.ts';
export * from './analyse.ts';
export * from './egdb.ts';
export * from './egdb-pack.ts';
export * from './book.ts';
export * from './port.ts';
export * from './jobs.ts';
export * from './ponder.ts';

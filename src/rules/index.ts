// The rules of English draughts (American checkers): pure, no I/O.
// Geometry and bitboards (squares), validated positions and FEN (position,
// fen), move generation and perft (movegen, perft), notation (notation),
// repetition hashing (zobrist), whole games with draws, results and variants
// (game), and the ACF three-move ballots (ballots). The 2,400 eleven-man
// ballots are in eleven-man.ts, imported directly (not re-exported here) so
// nothing that only needs the rules carries their table.

export * from './squares.ts';
export * from './position.ts';
export * from './fen.ts';
export * from './movegen.ts';
export * from './perft.ts';
export * from './notation.ts';
export * from './zobrist.ts';
export * from './game.ts';
export * from './ballots.ts';

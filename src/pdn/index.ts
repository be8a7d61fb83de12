// PDN (Portable Draughts Notation) for English draughts: the game model, a
// tolerant reader that resolves every move against the rules engine, and a
// standard writer. Pure text in, text out.

export * from './model.ts';
export * from './lexer.ts';
export * from './reader.ts';
export * from './writer.ts';
export * from './convert.ts';

// The pattern tables' weights (eval-patterns.ts says what they are), base64 of
// deflated little-endian 16-bit integers, written by `npm run tune -- --patterns --write`;
// empty: no pattern tables (the fitted ones lost in self-play; see eval-patterns.ts).
// Rerun the tuner rather than editing by hand.

export const PATTERN_DATA = '';

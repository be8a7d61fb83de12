// The storage stage: the games folder on disk. The journal format
// (journal.ts), the folder's lock (lock.ts), the writer with its retries
// (writer.ts), the catalogue of saved games and PDN collections
// (catalogue.ts, collection.ts), recovery at start-up (recovery.ts), the
// shared disk helpers (disk.ts), and the store putting them together
// (store.ts).

export * from './journal.ts';
export * from './store.ts';
export * from './recovery.ts';
export * from './catalogue.ts';
export { CollectionError, MAX_GAME_BYTES } from './collection.ts';
export { GamesFolderLocked, type LockInfo } from './lock.ts';
export type { StoreFs } from './disk.ts';

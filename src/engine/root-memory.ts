// The searcher's memory of the root it searched last: the root's identity
// (the position, the game's 40-move count and history, and what it is searched
// with) and the iterations it completed there. The same root asked again (a
// ponder hit: the position searched on the opponent's time is the one on the
// board) starts after those iterations instead of redoing them with another
// move-ordering history, which changes where late moves are reduced and so
// what the hash table's entries are worth. Nothing is remembered under a
// level's noise (its scores are not the position's).

import { hashPosition, type Position } from '../rules/index.ts';
import type { SearchOptions, SearchResult } from './search-limits.ts';

/** What makes two searches' roots the same: their results are interchangeable. */
interface RootIdentity {
  readonly key: string;
  readonly weights: object | undefined;
  readonly net: object | null | undefined;
  readonly egdb: object | null | undefined;
  readonly pruning: boolean;
  readonly reductions: boolean;
}

function identityOf(pos: Position, limits: SearchOptions): RootIdentity {
  const h = hashPosition(pos);
  const history = [...(limits.history ?? [])].sort((a, b) => a - b).join(',');
  return {
    key: `${h.hi}:${h.lo}:${limits.quietPlies ?? 0}:${history}`,
    weights: limits.weights,
    net: limits.net,
    egdb: limits.egdb,
    pruning: limits.pruning ?? true,
    reductions: limits.reductions ?? true,
  };
}

function same(a: RootIdentity, b: RootIdentity): boolean {
  return (
    a.key === b.key &&
    a.weights === b.weights &&
    a.net === b.net &&
    a.egdb === b.egdb &&
    a.pruning === b.pruning &&
    a.reductions === b.reductions
  );
}

export class RootMemory {
  private root: RootIdentity | null = null;
  private iterations: SearchResult[] = [];

  /**
   * A search of `pos` begins: the iterations completed at this root before (depth 1 up, in order; empty for
   * another root, which replaces the remembered one, or under a level's noise, which is never remembered).
   */
  begin(pos: Position, limits: SearchOptions): readonly SearchResult[] {
    const id = limits.rootNoise ? null : identityOf(pos, limits);
    if (id && this.root && same(id, this.root)) return this.iterations;
    this.root = id;
    this.iterations = [];
    return this.iterations;
  }

  /** An iteration of the current search completed (its depth is the next one remembered). */
  record(result: SearchResult): void {
    if (this.root && result.depth === this.iterations.length + 1) this.iterations.push(result);
  }

  /** Forget the root (a new game: the hash table it leaned on is cleared). */
  forget(): void {
    this.root = null;
    this.iterations = [];
  }
}

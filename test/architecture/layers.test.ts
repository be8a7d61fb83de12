// Floors as a rule: which folder of src/ may import which (type-only and
// dynamic imports included). The pure cores at the bottom (common, rules,
// pdn, model, protocol, words), then the stages of the data flow, then the
// wiring and the commands on top; a new edge is a decision, made here, and a
// folder cycle (say game ⇄ storage, which storage's journal once made by
// naming the clock's type) fails at once.
//
// model/ is the floor of the domain's vocabulary (a side, a square, a move
// record, an alert, the clocks, the storage health, the journal record, as
// zod schemas) and imports nothing: not even rules/, whose Color, Outcome and
// GameOptions stay its own (the engine's pure core), kept interchangeable with
// the model's by test/model/model.test.ts. protocol/ is the page's messages
// built on the model; tracking/ and storage/ need only the model, game/ and
// stations/ the protocol too for the page's messages (a game event, the
// snapshot, a command) they really make or relay.

import { describe, expect, it } from 'vitest';
import { importsOf, sourceFiles } from './scan.ts';

/** What each folder may import besides itself ("(top)" is src/'s own files: build-info.ts). */
const MAY_IMPORT: Record<string, readonly string[]> = {
  common: [],
  rules: ['common'],
  pdn: ['common', 'rules'],
  model: [],
  protocol: ['model'],
  words: ['model'],
  sensors: ['common'],
  reading: ['common'],
  doctor: ['sensors'],
  tracking: ['common', 'model', 'reading', 'rules', 'sensors', 'words'],
  storage: ['common', 'model'],
  engine: ['common', 'pdn', 'rules'],
  'engine-host': ['(top)', 'common', 'engine', 'model', 'rules'],
  game: ['common', 'engine', 'model', 'pdn', 'protocol', 'reading', 'rules', 'tracking', 'words'],
  tournament: ['common', 'game', 'pdn', 'rules', 'storage', 'words'],
  server: [
    '(top)',
    'tournament',
    'common',
    'doctor',
    'engine',
    'engine-host',
    'game',
    'pdn',
    'protocol',
    'reading',
    'rules',
    'sensors',
    'storage',
    'tracking',
    'words',
  ],
  stations: ['common', 'game', 'model', 'protocol', 'rules', 'sensors', 'server', 'storage'],
  web: ['common', 'protocol', 'rules', 'words'],
  cli: ['(top)', 'common', 'doctor', 'engine', 'engine-host', 'game', 'pdn', 'rules', 'sensors', 'server', 'stations', 'tracking'],
  '(top)': [],
};

const folderOf = (file: string): string => {
  const parts = file.split('/');
  return parts.length > 2 ? parts[1]! : '(top)';
};

/** Folder → folders it imports, as the sources have it. */
function folderGraph(): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const f of sourceFiles('src'))
    for (const t of importsOf(f, true)) {
      const [a, b] = [folderOf(f), folderOf(t)];
      if (a === b || !t.startsWith('src/')) continue;
      if (!edges.has(a)) edges.set(a, new Set());
      edges.get(a)!.add(b);
    }
  return edges;
}

/** A cycle among folders by the rule itself, if any (a depth-first search). */
function cycleIn(graph: Record<string, readonly string[]>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (v: string): string[] | null => {
    if (state.get(v) === 'done') return null;
    if (state.get(v) === 'open') return [...path.slice(path.indexOf(v)), v];
    state.set(v, 'open');
    path.push(v);
    for (const w of graph[v] ?? []) {
      const c = visit(w);
      if (c) return c;
    }
    path.pop();
    state.set(v, 'done');
    return null;
  };
  for (const v of Object.keys(graph)) {
    const c = visit(v);
    if (c) return c;
  }
  return null;
}

describe('layers', () => {
  it('every folder imports only what its floor allows', () => {
    const wrong: string[] = [];
    for (const [from, tos] of folderGraph()) {
      const allowed = MAY_IMPORT[from];
      if (!allowed) {
        wrong.push(`src/${from}/ is not in the layer table (test/architecture/layers.test.ts): give it its floor`);
        continue;
      }
      for (const to of tos) if (!allowed.includes(to)) wrong.push(`src/${from}/ imports src/${to}/`);
    }
    expect(wrong).toEqual([]);
  });

  it('the rule itself has no folder cycle, and names every folder of src/', () => {
    expect(cycleIn(MAY_IMPORT)).toBeNull();
    const folders = new Set(sourceFiles('src').map(folderOf));
    expect([...folders].filter((f) => !(f in MAY_IMPORT))).toEqual([]);
  });

  it('finds a folder cycle when there is one (the model naming a type of the game, as storage’s journal once named the clock’s)', () => {
    // (game no longer imports storage at all, the journal record being the model's: the model is the floor that could now close a cycle)
    const c = cycleIn({ ...MAY_IMPORT, model: [...MAY_IMPORT.model!, 'game'] });
    expect(c?.[0]).toBe(c?.at(-1));
    expect(new Set(c)).toEqual(new Set(['game', 'model']));
  });
});

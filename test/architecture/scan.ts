// Reads the sources for the architecture checks: the import graph (every
// `import`/`export … from`, type-only ones included, since a cycle of types is
// still two modules that cannot be understood apart), the length of every
// function, and the `as unknown as` casts. A small scanner on purpose: it strips
// comments and the contents of strings and template literals, then matches
// braces; it does not need a TypeScript parser (TypeScript 7 ships none to JS).

import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

/** Every .ts file under dir, as paths relative to the checkout. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(relative(ROOT, p));
    }
  };
  walk(join(ROOT, dir));
  return out;
}

const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

/**
 * The source with comments removed and string/template/regex contents blanked
 * (same length, same line breaks), so braces and keywords can be counted.
 */
export function blank(src: string): string {
  const out = src.split('');
  let i = 0;
  const n = src.length;
  const wipe = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== '\n') out[k] = ' ';
  };
  const templateDepth: number[] = [];
  let braces = 0;
  let prevSignificant = '';
  while (i < n) {
    const c = src[i];
    const d = src[i + 1];
    if (c === '/' && d === '/') {
      const end = src.indexOf('\n', i);
      const stop = end < 0 ? n : end;
      wipe(i, stop);
      i = stop;
      continue;
    }
    if (c === '/' && d === '*') {
      const end = src.indexOf('*/', i + 2);
      const stop = end < 0 ? n : end + 2;
      wipe(i, stop);
      i = stop;
      continue;
    }
    if (c === "'" || c === '"') {
      let k = i + 1;
      while (k < n && src[k] !== c && src[k] !== '\n') k += src[k] === '\\' ? 2 : 1;
      wipe(i + 1, k);
      i = k + 1;
      prevSignificant = 'x';
      continue;
    }
    if (c === '`' || (c === '}' && templateDepth.length > 0 && templateDepth[templateDepth.length - 1] === braces)) {
      if (c === '}') templateDepth.pop();
      let k = i + 1;
      while (k < n && src[k] !== '`' && !(src[k] === '$' && src[k + 1] === '{')) k += src[k] === '\\' ? 2 : 1;
      wipe(i + 1, k);
      if (src[k] === '$') {
        templateDepth.push(braces);
        i = k + 2;
      } else i = k + 1;
      prevSignificant = 'x';
      continue;
    }
    if (c === '/' && /[(,=:[!&|?{};]|^$/.test(prevSignificant)) {
      // a regular expression literal
      let k = i + 1;
      let inClass = false;
      while (k < n && src[k] !== '\n') {
        if (src[k] === '\\') k += 2;
        else {
          if (src[k] === '[') inClass = true;
          else if (src[k] === ']') inClass = false;
          else if (src[k] === '/' && !inClass) break;
          k++;
        }
      }
      wipe(i + 1, k);
      i = k + 1;
      prevSignificant = 'x';
      continue;
    }
    if (c === '{') braces++;
    else if (c === '}') braces--;
    if (!/\s/.test(c)) prevSignificant = c;
    i++;
  }
  return out.join('');
}

const STATIC_IMPORT = /^\s*(?:import|export)\b[^;]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/gm;
const DYNAMIC_IMPORT = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/**
 * Every module a file names in an `import`/`export … from`, as written
 * (packages and relative paths); `dynamic` adds the `import('…')` calls.
 */
export function specifiersOf(file: string, dynamic = false): string[] {
  const src = read(file);
  const out = new Set<string>();
  for (const m of src.matchAll(STATIC_IMPORT)) out.add(m[1] ?? m[2]);
  if (dynamic) for (const m of src.matchAll(DYNAMIC_IMPORT)) out.add(m[1]);
  return [...out];
}

/** The modules a file imports (resolved to checkout-relative paths; packages left out; `dynamic` as in specifiersOf). */
export function importsOf(file: string, dynamic = false): string[] {
  const out = new Set<string>();
  for (const spec of specifiersOf(file, dynamic)) {
    if (spec.startsWith('.')) out.add(relative(ROOT, resolve(ROOT, dirname(file), spec)));
  }
  return [...out];
}

/** Every import cycle among the files (each as the list of files around it), by Tarjan's strongly connected components. */
export function importCycles(files: readonly string[]): string[][] {
  const graph = new Map(files.map((f) => [f, importsOf(f).filter((g) => files.includes(g))]));
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(scc.sort());
    }
  };
  for (const f of files) if (!idx.has(f)) visit(f);
  return cycles;
}

export interface FunctionSpan {
  file: string;
  /** 1-based line of the header */
  line: number;
  lines: number;
  header: string;
}

const NOT_FUNCTION = /^(?:\}\s*)?(?:if|for|while|switch|catch|else|do|try|finally|with)\b|^(?:\}\s*)?else\s+if\b/;

/**
 * Every function, method, constructor and arrow function with a block body,
 * with its length in lines from the header to the closing brace.
 */
export function functionSpans(file: string): FunctionSpan[] {
  const src = blank(read(file));
  const lineStarts = [0];
  for (let i = 0; i < src.length; i++) if (src[i] === '\n') lineStarts.push(i + 1);
  const lineOf = (pos: number) => {
    let lo = 0,
      hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid] <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const spans: FunctionSpan[] = [];
  // A brace inside parentheses that opens no function (a default parameter's
  // `{}`, an object argument) belongs to the statement around it.
  const open: { pos: number; fn: boolean; saved: number }[] = [];
  let stmtStart = 0;
  let parens = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '(') parens++;
    else if (c === ')') parens--;
    else if (c === '{') {
      const header = src.slice(stmtStart, i).replace(/\s+/g, ' ').trim();
      const isFn =
        /=>\s*$/.test(header) ||
        (/\)\s*(?::\s*[^()]*?)?$/.test(header) &&
          !NOT_FUNCTION.test(header) &&
          /(?:^|[\s(,=:!?&|])(?:function\b[^(]*|[A-Za-z_$][\w$]*\s*(?:<[^>]*>)?)\s*\(/.test(header)) ||
        /^(?:(?:export|async|static|private|public|protected|readonly|get|set)\s+)*constructor\s*\(/.test(header);
      open.push({ pos: i, fn: isFn, saved: stmtStart });
      if (isFn || parens === 0) stmtStart = i + 1;
    } else if (c === '}') {
      const o = open.pop();
      if (o?.fn) {
        const line = lineOf(o.pos);
        const header = src.slice(o.saved, o.pos).replace(/\s+/g, ' ').trim();
        spans.push({ file, line, lines: lineOf(i) - line + 1, header: header.slice(-80) });
      }
      stmtStart = o && !o.fn && parens > 0 ? o.saved : i + 1;
    } else if (c === ';') stmtStart = i + 1;
  }
  return spans;
}

/** Lines of a file holding `as unknown as`, with whether the line or the one above gives a reason in a comment. */
export function unknownCasts(file: string): { line: number; reasoned: boolean }[] {
  const lines = read(file).split('\n');
  const out: { line: number; reasoned: boolean }[] = [];
  lines.forEach((text, i) => {
    if (!text.includes('as unknown as')) return;
    const reasoned = /\/\/\s*\S/.test(text.slice(text.indexOf('as unknown as'))) || /^\s*\/\/\s*\S/.test(lines[i - 1] ?? '');
    out.push({ line: i + 1, reasoned });
  });
  return out;
}

export const lineCount = (file: string): number => read(file).split('\n').length - (read(file).endsWith('\n') ? 1 : 0);

// Line numbers for the server's diagnostics, which point at JSON paths.
import type { Diag } from '../api/types';
import { LineFinder } from '../doc/lines';

// Parsing a large YAML text to find lines is not free: keep the last one.
let lastFinder: { text: string; finder: LineFinder } | null = null;
function finderFor(text: string): LineFinder {
  if (lastFinder?.text !== text) lastFinder = { text, finder: new LineFinder(text) };
  return lastFinder.finder;
}

/** Diagnostics of a document (not a text) carry no lines of their own. */
export function stripLines(diags: Diag[]): Diag[] {
  return diags.map((d) => ({ ...d, line: null, column: null }));
}

/** Adds YAML line numbers to diagnostics that have only a path. */
export function withLines(all: Diag[], text: string): Diag[] {
  // The same finding reported twice (same code, place and message) is shown once.
  const seen = new Set<string>();
  const diags = all.filter((d) => {
    const k = `${d.code}\u0000${d.path}\u0000${d.message}\u0000${d.line ?? ''}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  if (diags.every((d) => d.line != null)) return diags;
  const finder = finderFor(text);
  return diags.map((d) => (d.line != null ? d : { ...d, line: finder.line(d.path), column: d.column ?? 1 }));
}

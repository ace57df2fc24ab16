// The YAML of two versions, line by line (jsdiff), as rows a diff view draws: each with its line
// numbers on both sides, long unchanged runs folded as GitHub does, and paired up for the side by
// side view.

import { diffLines } from 'diff';

export type RowKind = 'same' | 'add' | 'del';

export interface Row {
  kind: RowKind;
  /** Line number in the earlier text (null on an added line). */
  old: number | null;
  /** Line number in the later text (null on a removed line). */
  new: number | null;
  text: string;
}

/** Unchanged lines kept around each change; a longer unchanged run folds. */
export const CONTEXT = 3;
/** Past this long, jsdiff gives up lining the texts up (a pathological pair) and the view says so. */
const TIMEOUT_MS = 1500;

function lines(value: string): string[] {
  const parts = value.split('\n');
  if (parts.length && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

export interface LineDiff {
  rows: Row[];
  /** jsdiff gave up: every earlier line is shown removed and every later one added. */
  coarse: boolean;
}

/** Unix line ends and a final newline, so that neither shows up as a change of its own. */
function normal(text: string): string {
  const unix = text.replace(/\r\n?/g, '\n');
  return unix && !unix.endsWith('\n') ? unix + '\n' : unix;
}

export function diffRows(before: string, after: string): LineDiff {
  const a = normal(before);
  const b = normal(after);
  const changes = diffLines(a, b, { timeout: TIMEOUT_MS });
  const rows: Row[] = [];
  let oldNo = 1;
  let newNo = 1;
  if (!changes) {
    for (const text of lines(a)) rows.push({ kind: 'del', old: oldNo++, new: null, text });
    for (const text of lines(b)) rows.push({ kind: 'add', old: null, new: newNo++, text });
    return { rows, coarse: true };
  }
  for (const c of changes) {
    for (const text of lines(c.value)) {
      if (c.added) rows.push({ kind: 'add', old: null, new: newNo++, text });
      else if (c.removed) rows.push({ kind: 'del', old: oldNo++, new: null, text });
      else rows.push({ kind: 'same', old: oldNo++, new: newNo++, text });
    }
  }
  return { rows, coarse: false };
}

/** A run of unchanged rows drawn as one "N unchanged lines" bar until opened. */
export interface Fold {
  kind: 'fold';
  /** Index of its first row in the row list. */
  start: number;
  count: number;
}

export type Shown = Row | Fold;

/**
 * The rows to draw: unchanged runs longer than twice the context fold, keeping `context` lines
 * next to each change (a run at the very start or end keeps lines on its changed side only).
 * Folds whose start is in `open` are drawn in full.
 */
export function foldRows(rows: readonly Row[], open: ReadonlySet<number> = new Set(), context = CONTEXT): Shown[] {
  const out: Shown[] = [];
  let i = 0;
  while (i < rows.length) {
    if (rows[i].kind !== 'same') {
      out.push(rows[i++]);
      continue;
    }
    let end = i;
    while (end < rows.length && rows[end].kind === 'same') end++;
    const keepBefore = i === 0 ? 0 : context;
    const keepAfter = end === rows.length ? 0 : context;
    const hidden = end - i - keepBefore - keepAfter;
    // Folding a line or two saves nothing: the bar takes a line itself.
    if (hidden > 1 && !open.has(i + keepBefore)) {
      out.push(...rows.slice(i, i + keepBefore));
      out.push({ kind: 'fold', start: i + keepBefore, count: hidden });
      out.push(...rows.slice(end - keepAfter, end));
    } else {
      out.push(...rows.slice(i, end));
    }
    i = end;
  }
  return out;
}

export interface SplitRow {
  left: Row | null;
  right: Row | null;
}

/** Side by side: unchanged lines on both sides; a removed run faces the added run after it, line by line. */
export function splitRows(shown: readonly Shown[]): (SplitRow | Fold)[] {
  const out: (SplitRow | Fold)[] = [];
  let i = 0;
  while (i < shown.length) {
    const item = shown[i];
    if (item.kind === 'fold') {
      out.push(item);
      i++;
    } else if (item.kind === 'same') {
      out.push({ left: item, right: item });
      i++;
    } else {
      const dels: Row[] = [];
      const adds: Row[] = [];
      while (i < shown.length && shown[i].kind === 'del') dels.push(shown[i++] as Row);
      while (i < shown.length && shown[i].kind === 'add') adds.push(shown[i++] as Row);
      for (let k = 0; k < Math.max(dels.length, adds.length); k++) out.push({ left: dels[k] ?? null, right: adds[k] ?? null });
    }
  }
  return out;
}

/** How many lines each side lost and gained ("+2 −1" in the header). */
export function lineCounts(rows: readonly Row[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const r of rows) {
    if (r.kind === 'add') added++;
    else if (r.kind === 'del') removed++;
  }
  return { added, removed };
}

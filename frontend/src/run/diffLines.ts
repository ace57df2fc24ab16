// A unified diff's lines, each classified for the change view: added, removed, context, hunk
// header or file header. Hunk headers' counts say where a hunk ends, so a removed line whose
// text starts with "-- " is not mistaken for a "--- " file header.

export type DiffLineKind = 'add' | 'del' | 'context' | 'hunk' | 'meta';

export interface DiffLine {
  kind: DiffLineKind;
  text: string;
}

const HUNK = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;

export function diffLines(diff: string): DiffLine[] {
  const lines = diff.split(/\r?\n/);
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  const out: DiffLine[] = [];
  // Lines left in the current hunk, on the old side and the new side (0 and 0: outside a hunk).
  let oldLeft = 0;
  let newLeft = 0;
  for (const text of lines) {
    // Inside a hunk every line starts with a space, +, - or a backslash, so "@@" always opens one.
    const m = HUNK.exec(text);
    if (m) {
      oldLeft = m[1] === undefined ? 1 : Number(m[1]);
      newLeft = m[2] === undefined ? 1 : Number(m[2]);
      out.push({ kind: 'hunk', text });
      continue;
    }
    const c = text[0];
    if (c === '\\') {
      out.push({ kind: 'meta', text });
    } else if ((oldLeft > 0 || newLeft > 0) && (c === '+' || c === '-' || c === ' ' || c === undefined)) {
      if (c === '+') newLeft--;
      else if (c === '-') oldLeft--;
      else {
        oldLeft--;
        newLeft--;
      }
      out.push({ kind: c === '+' ? 'add' : c === '-' ? 'del' : 'context', text });
    } else {
      oldLeft = newLeft = 0;
      out.push({ kind: 'meta', text });
    }
  }
  return out;
}

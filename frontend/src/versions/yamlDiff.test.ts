import { describe, expect, it } from 'vitest';
import { diffRows, foldRows, lineCounts, splitRows, type Row } from './yamlDiff';

const numbered = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `line ${i + from}`);

describe('diffRows', () => {
  it('numbers both sides and marks the changed line as removed then added', () => {
    const { rows, coarse } = diffRows('a\nb\nc\n', 'a\nB\nc\n');
    expect(coarse).toBe(false);
    expect(rows).toEqual([
      { kind: 'same', old: 1, new: 1, text: 'a' },
      { kind: 'del', old: 2, new: null, text: 'b' },
      { kind: 'add', old: null, new: 2, text: 'B' },
      { kind: 'same', old: 3, new: 3, text: 'c' },
    ]);
    expect(lineCounts(rows)).toEqual({ added: 1, removed: 1 });
  });

  it('treats Windows line ends like Unix ones and a missing last newline as none', () => {
    const { rows } = diffRows('a\r\nb', 'a\nb\n');
    expect(rows.every((r) => r.kind === 'same')).toBe(true);
  });

  it('handles empty texts on either side', () => {
    expect(diffRows('', 'x\n').rows).toEqual([{ kind: 'add', old: null, new: 1, text: 'x' }]);
    expect(diffRows('', '').rows).toEqual([]);
  });
});

describe('foldRows', () => {
  const before = numbered(20).join('\n');
  const after = [...numbered(10), 'changed', ...numbered(9, 12)].join('\n');
  const { rows } = diffRows(before, after);

  it('keeps three lines around a change and folds the long runs', () => {
    const shown = foldRows(rows);
    expect(shown[0]).toEqual({ kind: 'fold', start: 0, count: 7 });
    expect((shown[1] as Row).text).toBe('line 8');
    const folds = shown.filter((s) => s.kind === 'fold');
    expect(folds).toEqual([
      { kind: 'fold', start: 0, count: 7 },
      { kind: 'fold', start: 15, count: 6 },
    ]);
    expect(shown.length).toBe(1 + 3 + 2 + 3 + 1);
  });

  it('draws a fold in full once opened', () => {
    const shown = foldRows(rows, new Set([0]));
    expect(shown[0]).toEqual(rows[0]);
    expect(shown.filter((s) => s.kind === 'fold')).toHaveLength(1);
  });

  it('never folds a single line', () => {
    const r = diffRows([...numbered(4), 'x', ...numbered(7, 5)].join('\n'), [...numbered(4), 'y', ...numbered(7, 5)].join('\n')).rows;
    const shown = foldRows(r);
    // Four unchanged lines before the change: hiding one behind a bar saves nothing, so all four show.
    expect(shown.slice(0, 4)).toEqual(r.slice(0, 4));
    // Seven after it: three kept, four folded.
    expect(shown.filter((s) => s.kind === 'fold')).toEqual([{ kind: 'fold', start: 9, count: 4 }]);
  });
});

describe('splitRows', () => {
  it('faces each removed line with the added line that replaced it', () => {
    const { rows } = diffRows('a\nb\nc\nd\n', 'a\nB\nd\ne\n');
    const split = splitRows(foldRows(rows));
    expect(split).toEqual([
      { left: rows[0], right: rows[0] },
      { left: rows[1], right: rows[3] },
      { left: rows[2], right: null },
      { left: rows[4], right: rows[4] },
      { left: null, right: rows[5] },
    ]);
  });
});

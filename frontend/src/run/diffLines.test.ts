import { describe, expect, it } from 'vitest';
import { diffLines } from './diffLines';

const kinds = (diff: string) => diffLines(diff).map((l) => `${l.kind} ${l.text}`);

describe('diffLines', () => {
  it('classifies file headers, hunk headers, added, removed and context lines', () => {
    const diff = ['--- a/app.py', '+++ b/app.py', '@@ -1,3 +1,3 @@', ' import os', '-print(1)', '+print(2)', ' done()', ''].join('\n');
    expect(kinds(diff)).toEqual(['meta --- a/app.py', 'meta +++ b/app.py', 'hunk @@ -1,3 +1,3 @@', 'context  import os', 'del -print(1)', 'add +print(2)', 'context  done()']);
  });

  it('reads lines that look like file headers inside a hunk as changes', () => {
    const diff = ['--- a/x.sql', '+++ b/x.sql', '@@ -1,2 +1,2 @@', '--- old comment', '+++ new stuff', ' same', '--- a/y', '+++ b/y', '@@ -0,0 +1 @@', '+new file'].join('\n');
    expect(kinds(diff)).toEqual([
      'meta --- a/x.sql',
      'meta +++ b/x.sql',
      'hunk @@ -1,2 +1,2 @@',
      'del --- old comment',
      'add +++ new stuff',
      'context  same',
      'meta --- a/y',
      'meta +++ b/y',
      'hunk @@ -0,0 +1 @@',
      'add +new file',
    ]);
  });

  it('keeps "no newline" notes and several hunks apart', () => {
    const diff = '@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n@@ -10,1 +10,2 @@\n x\n+y\n';
    expect(diffLines(diff).map((l) => l.kind)).toEqual(['hunk', 'del', 'meta', 'add', 'hunk', 'context', 'add']);
  });

  it('handles CRLF and empty text', () => {
    expect(diffLines('@@ -1 +1 @@\r\n-a\r\n+b\r\n').map((l) => l.text)).toEqual(['@@ -1 +1 @@', '-a', '+b']);
    expect(diffLines('')).toEqual([]);
  });
});

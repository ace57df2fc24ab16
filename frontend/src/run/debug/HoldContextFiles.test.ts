import { describe, expect, it } from 'vitest';
import { contextFilesOf, fileNote } from './HoldContextFiles';

describe('contextFilesOf', () => {
  it('types the hold’s context files and leaves out what is not one', () => {
    const files = contextFilesOf({
      context_files: [
        { path: 'notes/deadline.md', text: 'Friday', size: 6, truncated: false, edited: true },
        { path: 'logo.png', text: null, size: 120 },
        { text: 'no path' },
        'notes.md',
        null,
      ],
    });
    expect(files).toEqual([
      { path: 'notes/deadline.md', text: 'Friday', truncated: false, edited: true, size: 6 },
      { path: 'logo.png', text: null, truncated: false, edited: false, size: 120 },
    ]);
    expect(contextFilesOf({})).toEqual([]);
    expect(contextFilesOf({ context_files: 'notes.md' })).toEqual([]);
  });
});

describe('fileNote', () => {
  const file = { path: 'a.md', text: 'x', truncated: false, edited: false, size: 1 };
  it('says what a row holds beside its path', () => {
    expect(fileNote(file)).toBe('');
    expect(fileNote({ ...file, edited: true })).toBe('edited for this execution');
    expect(fileNote({ ...file, truncated: true })).toContain('replaces the whole file');
    expect(fileNote({ ...file, text: null })).toContain('binary (1 bytes)');
    expect(fileNote({ ...file, text: null, size: null })).toBe('not read');
  });
});

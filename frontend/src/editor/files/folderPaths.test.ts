import { describe, expect, it } from 'vitest';
import { isTextName, pathProblem } from './folderPaths';

describe('folder file paths', () => {
  it('accepts relative paths and refuses what the server would refuse, saying why', () => {
    expect(pathProblem('prompts/writer.md', [])).toBeNull();
    expect(pathProblem('  ', [])).toMatch(/Type a file name/);
    expect(pathProblem('/etc/passwd', [])).toMatch(/relative/);
    expect(pathProblem('C:\\x.md', [])).toMatch(/relative/);
    expect(pathProblem('a/../../x.md', [])).toMatch(/no “..”/);
    expect(pathProblem('a//b.md', [])).toMatch(/empty parts/);
    expect(pathProblem('a.md', ['a.md'])).toMatch(/already has a.md/);
  });

  it('edits text files as text and shows others as files', () => {
    expect(isTextName('prompts/coder.md')).toBe(true);
    expect(isTextName('workflows/deploy.yaml')).toBe(true);
    expect(isTextName('Makefile')).toBe(true);
    expect(isTextName('fixtures/sample.png')).toBe(false);
    expect(isTextName('fixtures/sample.pdf')).toBe(false);
  });
});

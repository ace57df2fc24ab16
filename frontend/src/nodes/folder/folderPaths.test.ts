import { describe, expect, it } from 'vitest';
import { atFile, dirOf, fileKind, isTextName, joinPath, pathProblem } from './folderPaths';

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

  it('joins a reference to the folder of the file that names it, as the server does', () => {
    expect(joinPath('', 'prompts/x.md')).toBe('prompts/x.md');
    expect(joinPath('flows', 'prompts/x.md')).toBe('flows/prompts/x.md');
    expect(joinPath('flows/sub', '../prompts/./x.md')).toBe('flows/prompts/x.md');
    expect(joinPath('flows', 'a\\b.md')).toBe('flows/a/b.md');
    expect(joinPath('', '../x.md')).toBeNull();
    expect(joinPath('flows', '/etc/passwd')).toBeNull();
    expect(joinPath('', 'C:/x.md')).toBeNull();
    expect(dirOf('workflows/deploy.yaml')).toBe('workflows');
    expect(dirOf('main.yaml')).toBe('');
  });

  it('reads @file references and leaves inline text alone', () => {
    expect(atFile('@prompts/coder.md')).toBe('prompts/coder.md');
    expect(atFile('Write the code.')).toBeNull();
    expect(atFile('@ mention someone please')).toBeNull();
    expect(atFile(undefined)).toBeNull();
  });

  it('tells text, images and PDFs apart', () => {
    expect(fileKind('fixtures/context.txt')).toBe('text');
    expect(fileKind('fixtures/sample.PNG')).toBe('image');
    expect(fileKind('fixtures/sample.pdf')).toBe('pdf');
    expect(fileKind('data/blob.bin')).toBe('binary');
  });
});

import { StringStream } from '@codemirror/language';
import { describe, expect, it } from 'vitest';
import { languageOf } from './codeLanguage';
import { MODES, type ModeState } from './simpleModes';

/** The styled tokens of some lines, the state carried from line to line as the editor does. */
function tokens(language: keyof typeof MODES, lines: string[]): [string, string][] {
  const mode = MODES[language]!;
  const state: ModeState = mode.startState!(2);
  const out: [string, string][] = [];
  for (const line of lines) {
    const stream = new StringStream(line, 4, 2);
    while (!stream.eol()) {
      const style = mode.token(stream, state);
      if (stream.pos === stream.start) throw new Error('the tokenizer did not advance');
      if (style) out.push([stream.current(), style]);
      stream.start = stream.pos;
    }
  }
  return out;
}

describe('languageOf', () => {
  it('knows a language by extension or by whole name, in any case', () => {
    expect(languageOf('config/app.JSON')).toBe('json');
    expect(languageOf('a/b/c.yml')).toBe('yaml');
    expect(languageOf('src/main.py')).toBe('python');
    expect(languageOf('web/App.tsx')).toBe('javascript');
    expect(languageOf('build/Dockerfile')).toBe('shell');
    expect(languageOf('Makefile')).toBe('shell');
    expect(languageOf('lib.rs')).toBe('rust');
  });

  it('leaves other files plain', () => {
    expect(languageOf('notes.txt')).toBeNull();
    expect(languageOf('.gitignore')).toBeNull();
    expect(languageOf('README')).toBeNull();
    expect(languageOf('trailing.')).toBeNull();
  });
});

describe('simple modes', () => {
  it('marks keywords, strings, numbers and comments', () => {
    expect(tokens('python', ['def f(x): return "a#b" + 42  # done'])).toEqual([
      ['def', 'keyword'],
      [':', 'operator'],
      ['return', 'keyword'],
      ['"a#b"', 'string'],
      ['+', 'operator'],
      ['42', 'number'],
      ['# done', 'comment'],
    ]);
  });

  it('carries block comments and long strings across lines', () => {
    expect(tokens('javascript', ['/* one', 'two */ const x = `a', 'b`;'])).toEqual([
      ['/* one', 'comment'],
      ['two */', 'comment'],
      ['const', 'keyword'],
      ['=', 'operator'],
      ['`a', 'string'],
      ['b`', 'string'],
    ]);
    expect(tokens('python', ['"""doc', 'more"""', 'None'])).toEqual([
      ['"""doc', 'string'],
      ['more"""', 'string'],
      ['None', 'atom'],
    ]);
  });

  it('reads escaped quotes as part of the string', () => {
    expect(tokens('shell', ['echo "say \\"hi\\"" # c'])).toEqual([
      ['echo', 'keyword'],
      ['"say \\"hi\\""', 'string'],
      ['# c', 'comment'],
    ]);
  });
});

// Highlighting for the source files a run's workspace shows (read only): keywords, strings,
// comments and numbers, enough to read code by. A full grammar per language is not worth its
// weight in a viewer; JSON and YAML use their real CodeMirror languages (codeHighlight.ts).
import type { StreamParser } from '@codemirror/language';
import type { CodeLanguage } from './codeLanguage';

interface ModeSpec {
  /** What starts a comment to the end of the line. */
  line?: string[];
  /** What opens and closes a comment that may span lines. */
  block?: [string, string];
  /** Quotes of strings that end on their line. */
  quotes: string;
  /** Quotes of strings that may span lines (''' in Python, ` in JavaScript). */
  longQuotes?: string[];
  keywords: string;
  atoms?: string;
}

export interface ModeState {
  /** Inside a block comment. */
  comment: boolean;
  /** Inside a long string: its closing quote. */
  quote: string | null;
}

const words = (s: string | undefined) => new Set((s ?? '').split(' ').filter(Boolean));

export function simpleMode(name: string, spec: ModeSpec): StreamParser<ModeState> {
  const keywords = words(spec.keywords);
  const atoms = words(spec.atoms);
  const untilClosed = (stream: Parameters<StreamParser<ModeState>['token']>[0], close: string): boolean => {
    while (!stream.eol()) {
      if (stream.match(close)) return true;
      if (stream.next() === '\\' && close !== '*/') stream.next();
    }
    return false;
  };
  return {
    name,
    startState: () => ({ comment: false, quote: null }),
    copyState: (s) => ({ ...s }),
    token(stream, state) {
      if (state.comment && spec.block) {
        if (untilClosed(stream, spec.block[1])) state.comment = false;
        return 'comment';
      }
      if (state.quote) {
        if (untilClosed(stream, state.quote)) state.quote = null;
        return 'string';
      }
      if (stream.eatSpace()) return null;
      for (const start of spec.line ?? []) {
        if (stream.match(start)) {
          stream.skipToEnd();
          return 'comment';
        }
      }
      if (spec.block && stream.match(spec.block[0])) {
        state.comment = !untilClosed(stream, spec.block[1]);
        return 'comment';
      }
      for (const q of spec.longQuotes ?? []) {
        if (stream.match(q)) {
          if (!untilClosed(stream, q)) state.quote = q;
          return 'string';
        }
      }
      const ch = stream.peek() ?? '';
      if (spec.quotes.includes(ch)) {
        stream.next();
        untilClosed(stream, ch);
        return 'string';
      }
      if (stream.match(/^(0x[\da-f]+|\d[\d_]*(\.\d+)?(e[+-]?\d+)?)/i)) return 'number';
      if (stream.match(/^[A-Za-z_$][\w$]*/)) {
        const word = stream.current();
        return keywords.has(word) ? 'keyword' : atoms.has(word) ? 'atom' : null;
      }
      stream.next();
      return /[+\-*/%=<>!&|^~?:]/.test(ch) ? 'operator' : null;
    },
  };
}

const C_KEYWORDS =
  'if else for while do switch case default break continue return goto struct union enum typedef sizeof static const extern void int char long short float double unsigned signed class public private protected new delete this virtual override namespace using template typename try catch throw final abstract interface extends implements import package var val fun let func guard in is as';

export const MODES: Partial<Record<CodeLanguage, StreamParser<ModeState>>> = {
  python: simpleMode('python', {
    line: ['#'],
    quotes: `'"`,
    longQuotes: ['"""', "'''"],
    keywords: 'and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield match case',
    atoms: 'None True False self',
  }),
  javascript: simpleMode('javascript', {
    line: ['//'],
    block: ['/*', '*/'],
    quotes: `'"`,
    longQuotes: ['`'],
    keywords:
      'break case catch class const continue debugger default delete do else export extends finally for function if import in instanceof let new of return super switch this throw try typeof var void while with yield async await from as type interface enum implements private public protected readonly declare namespace',
    atoms: 'true false null undefined NaN Infinity',
  }),
  shell: simpleMode('shell', {
    line: ['#'],
    quotes: `'"`,
    keywords: 'if then else elif fi for while until do done case esac in function return local export set unset echo exit cd source FROM RUN CMD COPY ADD ENV WORKDIR ENTRYPOINT EXPOSE ARG USER',
    atoms: 'true false',
  }),
  go: simpleMode('go', {
    line: ['//'],
    block: ['/*', '*/'],
    quotes: `'"`,
    longQuotes: ['`'],
    keywords: 'break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var',
    atoms: 'true false nil iota',
  }),
  rust: simpleMode('rust', {
    line: ['//'],
    block: ['/*', '*/'],
    quotes: '"',
    keywords: 'as async await break const continue crate dyn else enum extern fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait type unsafe use where while',
    atoms: 'true false None Some Ok Err',
  }),
  clike: simpleMode('clike', { line: ['//'], block: ['/*', '*/'], quotes: `'"`, keywords: C_KEYWORDS, atoms: 'true false null nullptr NULL' }),
  ruby: simpleMode('ruby', {
    line: ['#'],
    quotes: `'"`,
    keywords: 'alias and begin break case class def defined? do else elsif end ensure for if in module next not or redo rescue retry return self super then undef unless until when while yield require',
    atoms: 'true false nil',
  }),
  sql: simpleMode('sql', {
    line: ['--'],
    block: ['/*', '*/'],
    quotes: `'"`,
    keywords:
      'select from where and or not insert into values update set delete create table drop alter index join left right inner outer on group by order having limit as distinct union all primary key foreign references SELECT FROM WHERE AND OR NOT INSERT INTO VALUES UPDATE SET DELETE CREATE TABLE DROP ALTER INDEX JOIN LEFT RIGHT INNER OUTER ON GROUP BY ORDER HAVING LIMIT AS DISTINCT UNION ALL PRIMARY KEY FOREIGN REFERENCES',
    atoms: 'null true false NULL TRUE FALSE',
  }),
  toml: simpleMode('toml', { line: ['#', ';'], quotes: `'"`, longQuotes: ['"""', "'''"], keywords: '', atoms: 'true false' }),
  css: simpleMode('css', { block: ['/*', '*/'], quotes: `'"`, keywords: 'important media import from to' }),
};

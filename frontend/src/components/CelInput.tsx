// A CEL expression field: highlighting, completion of the variables in scope,
// and the list of those variables beneath it.
import { useMemo } from 'react';
import { StreamLanguage, HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { autocompletion, type CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { tags } from '@lezer/highlight';
import { EditorView } from '@codemirror/view';
import type { CelVar } from '../doc/celScope';
import { CodeEditor } from './CodeEditor';

const KEYWORDS = new Set(['true', 'false', 'null', 'in', 'has', 'size', 'int', 'string', 'double', 'bool', 'type', 'matches', 'contains', 'startsWith', 'endsWith', 'exists', 'all', 'map', 'filter', 'exists_one']);
const ROOTS = new Set(['steps', 'item', 'index', 'iteration', 'content', 'result', 'status']);

export const celLanguage = StreamLanguage.define<{ inString: string | null }>({
  name: 'cel',
  startState: () => ({ inString: null }),
  token(stream, state) {
    if (state.inString) {
      while (!stream.eol()) {
        const ch = stream.next();
        if (ch === '\\') stream.next();
        else if (ch === state.inString) {
          state.inString = null;
          break;
        }
      }
      return 'string';
    }
    if (stream.eatSpace()) return null;
    const ch = stream.peek();
    if (ch === '"' || ch === "'") {
      state.inString = stream.next() ?? null;
      return 'string';
    }
    if (stream.match(/^\d+(\.\d+)?/)) return 'number';
    if (stream.match(/^(==|!=|<=|>=|&&|\|\||[<>!+\-*/%?:])/)) return 'operator';
    const word = stream.match(/^[A-Za-z_][A-Za-z0-9_]*/);
    if (word && Array.isArray(word)) {
      const w = word[0];
      if (ROOTS.has(w)) return 'variableName.special';
      if (KEYWORDS.has(w)) return 'keyword';
      return 'propertyName';
    }
    stream.next();
    return 'punctuation';
  },
});

const celStyle = HighlightStyle.define([
  { tag: tags.string, color: 'var(--code-literal)' },
  { tag: tags.number, color: 'var(--code-number)' },
  { tag: tags.operator, color: 'var(--code-operator)' },
  { tag: tags.keyword, color: 'var(--code-keyword)', fontWeight: '600' },
  { tag: tags.special(tags.variableName), color: 'var(--code-definition)', fontWeight: '600' },
  { tag: tags.propertyName, color: 'var(--code-property)' },
]);

export function CelInput({
  value,
  onChange,
  variables,
  id,
  testId,
  placeholder,
}: {
  value: string;
  onChange: (v: string) => void;
  variables: CelVar[];
  id?: string;
  testId?: string;
  placeholder?: string;
}) {
  const extensions = useMemo(() => {
    const complete = (ctx: CompletionContext): CompletionResult | null => {
      const word = ctx.matchBefore(/[\w.'[\]-]*/);
      if (!word || (word.from === word.to && !ctx.explicit)) return null;
      return {
        from: word.from,
        options: variables.map((v) => ({ label: v.name, detail: v.detail, type: 'variable' })),
        validFor: /^[\w.'[\]-]*$/,
      };
    };
    return [
      celLanguage,
      syntaxHighlighting(celStyle),
      autocompletion({ override: [complete], activateOnTyping: true }),
      EditorView.theme({ '&': { fontSize: '13px' }, '.cm-content': { fontFamily: 'var(--mono)', padding: '6px 0' } }),
    ];
  }, [variables]);
  return (
    <div className="cel-input">
      <CodeEditor value={value} onChange={onChange} extensions={extensions} id={id} testId={testId} placeholder={placeholder} ariaLabel="CEL expression" className="cm-field" tabMovesFocus />
      {variables.length > 0 && (
        <details className="cel-vars">
          <summary>{variables.length} variables in scope</summary>
          <ul>
            {variables.map((v) => (
              <li key={v.name}>
                <code>{v.name}</code> <span className="muted">{v.detail}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

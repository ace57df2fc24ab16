import { useMemo, useState } from 'react';
import { json } from '@codemirror/lang-json';
import { CodeEditor } from '../../components/CodeEditor';
import { isObject, type JsonObject } from '../../doc/types';

/** True when `text` is JSON for `value`: the value came from this editor's own typing. */
function echoes(text: string, value: unknown): boolean {
  if (text.trim() === '') return false;
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}

/** JSON editor (CodeMirror); text that is not JSON is kept here, not applied. */
export function JsonInput({ field, value, onChange }: { field: string; value: unknown; onChange: (v: JsonObject | undefined) => void }) {
  const external = value === undefined ? '' : JSON.stringify(value, null, 2);
  const [text, setText] = useState(external);
  const [error, setError] = useState<string | null>(null);
  const [followed, setFollowed] = useState(external);
  if (external !== followed) {
    // Follow outside changes (undo, YAML view, make-judge) unless they echo ours.
    setFollowed(external);
    if (!echoes(text, value)) {
      setText(external);
      setError(null);
    }
  }
  const extensions = useMemo(() => [json()], []);
  return (
    <>
      <CodeEditor
        value={text}
        id={`f-${field}`}
        extensions={extensions}
        className="cm-json"
        placeholder='{"type": "object", "properties": {}}'
        ariaLabel="result schema JSON"
        onChange={(t) => {
          setText(t);
          if (t.trim() === '') {
            setError(null);
            onChange(undefined);
            return;
          }
          try {
            const parsed: unknown = JSON.parse(t);
            if (!isObject(parsed)) {
              setError('A JSON Schema is an object: { ... }.');
              return;
            }
            setError(null);
            onChange(parsed);
          } catch (e) {
            setError(`Not JSON yet: ${e instanceof Error ? e.message : String(e)}`);
          }
        }}
      />
      {error && <div className="field-problem error">{error}</div>}
    </>
  );
}

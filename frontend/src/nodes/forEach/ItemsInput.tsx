import { useEffect, useRef, useState } from 'react';
import type { Json } from '../../doc/types';

/** A static list of items as JSON; text that is not a JSON list yet is kept here, not applied. */
export function ItemsInput({ value, onChange }: { value: Json[]; onChange: (v: Json[]) => void }) {
  const external = JSON.stringify(value, null, 1);
  const [text, setText] = useState(external);
  const [error, setError] = useState<string | null>(null);
  const focused = useRef(false);
  useEffect(() => {
    if (!focused.current) setText(external);
  }, [external]);
  return (
    <>
      <textarea
        id="f-loop.forEach"
        className="input mono"
        rows={3}
        value={text}
        onFocus={() => (focused.current = true)}
        onBlur={() => {
          focused.current = false;
          setText(external);
          setError(null);
        }}
        onChange={(e) => {
          setText(e.target.value);
          try {
            const parsed: unknown = JSON.parse(e.target.value);
            if (!Array.isArray(parsed)) throw new Error('a list is written [ ... ]');
            setError(null);
            onChange(parsed as Json[]);
          } catch (err) {
            setError(`Not a JSON list yet: ${err instanceof Error ? err.message : String(err)}`);
          }
        }}
      />
      {error && <div className="field-problem error">{error}</div>}
    </>
  );
}

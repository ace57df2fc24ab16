// A search field that asks the server only once the typing pauses.
import { useEffect, useEffectEvent, useState } from 'react';

interface Props {
  /** The search in force (the address's); the field follows it when it changes elsewhere (Clear, Back). */
  value: string;
  onCommit: (text: string) => void;
  label: string;
  placeholder?: string;
  testId: string;
  id?: string;
  delay?: number;
}

export function SearchBox({ value, onCommit, label, placeholder, testId, id, delay = 200 }: Props) {
  const [draft, setDraft] = useState({ text: value, committed: value });
  if (draft.committed !== value) setDraft({ text: value, committed: value });
  const commit = (text: string) => {
    setDraft({ text, committed: text });
    onCommit(text);
  };
  const paused = useEffectEvent(commit);
  useEffect(() => {
    if (draft.text === draft.committed) return;
    const timer = window.setTimeout(() => paused(draft.text), delay);
    return () => window.clearTimeout(timer);
  }, [draft, delay]);
  return (
    <input
      id={id}
      className="input"
      type="search"
      aria-label={label}
      placeholder={placeholder}
      value={draft.text}
      onChange={(e) => setDraft({ text: e.target.value, committed: draft.committed })}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit(draft.text);
      }}
      data-testid={testId}
    />
  );
}

// The source to translate: which system it is from, its text (typed, pasted or dropped) and a file chooser.
import { useId, useRef, useState } from 'react';
import type { ImportKind } from './api';

const KINDS: { kind: ImportKind; label: string; placeholder: string }[] = [
  {
    kind: 'runsight',
    label: 'Runsight workflow (YAML)',
    placeholder: 'blocks:\n  draft:\n    type: linear\n    soul_ref: writer\nworkflow:\n  name: My workflow\n  entry: draft',
  },
  {
    kind: 'coqui',
    label: 'Coqui loop definition (JSON)',
    placeholder: '{\n  "name": "harness",\n  "roles": [ ... ],\n  "termination_condition": { ... }\n}',
  },
];

interface Props {
  kind: ImportKind;
  onKind(kind: ImportKind): void;
  text: string;
  onText(text: string): void;
  /** The file the text came from (null: typed). */
  fileName: string | null;
  onFile(file: File | undefined): void;
}

export function SourceInput({ kind, onKind, text, onText, fileName, onFile }: Props) {
  const ids = useId();
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <fieldset className="kind-choice">
        <legend>Source system</legend>
        {KINDS.map((k) => (
          <label key={k.kind}>
            <input type="radio" name={`${ids}-kind`} value={k.kind} checked={kind === k.kind} onChange={() => onKind(k.kind)} />
            {k.label}
          </label>
        ))}
      </fieldset>

      <div
        className={`dropzone${over ? ' over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          onFile(e.dataTransfer.files[0]);
        }}
        data-testid="other-import-dropzone"
      >
        <textarea
          className="input mono"
          rows={10}
          placeholder={KINDS.find((k) => k.kind === kind)?.placeholder}
          value={text}
          onChange={(e) => onText(e.target.value)}
          aria-label="Source text"
          data-testid="other-import-text"
          spellCheck={false}
          autoFocus
        />
      </div>
      <div className="row">
        <input
          ref={input}
          type="file"
          accept=".yaml,.yml,.json,text/yaml,application/json"
          hidden
          onChange={(e) => {
            onFile(e.target.files?.[0]);
            e.target.value = '';
          }}
          data-testid="other-import-file"
        />
        <button className="btn ghost small" onClick={() => input.current?.click()}>
          Choose a file…
        </button>
        <span className="muted small">{fileName ? `Loaded ${fileName}` : 'or drop a file on the text box'}</span>
      </div>
    </>
  );
}

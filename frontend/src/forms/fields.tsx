// Form fields of the inspector's panels. Each shows a short help text and the server's
// diagnostics for its field; none of them checks the document itself.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { Diag } from '../api/types';

export interface FieldProps {
  /** Stable id for focus from the problems panel: the diagnostic field path. */
  field: string;
  label: string;
  help?: string;
  problems?: Diag[];
  children?: ReactNode;
}

/** What blocks Run is shown as an error: it has to be fixed before the workflow runs. */
function shownSeverity(p: Diag): 'error' | 'warning' {
  return p.blocks_run ? 'error' : p.severity;
}

/** The server's findings about one field (or one thing), each with its hint. */
export function ProblemLines({ problems }: { problems: readonly Diag[] | undefined }) {
  return problems?.map((p, i) => (
    <div key={i} className={`field-problem ${shownSeverity(p)}`} role={shownSeverity(p) === 'error' ? 'alert' : undefined}>
      {p.message}
      {p.hint && <span className="muted"> — {p.hint}</span>}
    </div>
  ));
}

export function Field({ field, label, help, problems, children }: FieldProps) {
  const hasError = problems?.some((p) => shownSeverity(p) === 'error');
  return (
    <div className={`field${hasError ? ' has-error' : problems?.length ? ' has-warning' : ''}`} data-field={field}>
      <label className="field-label" htmlFor={`f-${field}`}>
        {label}
      </label>
      {children}
      <ProblemLines problems={problems} />
      {help && <div className="field-help">{help}</div>}
    </div>
  );
}

/** A text input that keeps its own text while typing (no caret jumps). */
export function TextInput({
  field,
  value,
  onChange,
  multiline,
  mono,
  placeholder,
  rows,
  list,
}: {
  field: string;
  value: string;
  onChange: (v: string) => void;
  multiline?: boolean;
  mono?: boolean;
  placeholder?: string;
  rows?: number;
  /** The id of a <datalist> of suggestions (single-line only). */
  list?: string;
}) {
  const [text, setText] = useState(value);
  const focused = useRef(false);
  useEffect(() => {
    if (!focused.current) setText(value);
  }, [value]);
  const common = {
    id: `f-${field}`,
    className: `input${mono ? ' mono' : ''}`,
    value: text,
    placeholder,
    onFocus: () => (focused.current = true),
    onBlur: () => {
      focused.current = false;
      setText(value);
    },
  };
  if (multiline) {
    return (
      <textarea
        {...common}
        rows={rows ?? 4}
        onChange={(e) => {
          setText(e.target.value);
          onChange(e.target.value);
        }}
      />
    );
  }
  return (
    <input
      {...common}
      type="text"
      list={list}
      onChange={(e) => {
        setText(e.target.value);
        onChange(e.target.value);
      }}
    />
  );
}

/** Numbers: empty means unset; text that is not a number is kept but not applied. */
export function NumberInput({
  field,
  value,
  onChange,
  integer,
  placeholder,
  step,
}: {
  field: string;
  value: unknown;
  onChange: (v: number | undefined) => void;
  integer?: boolean;
  placeholder?: string;
  step?: number;
}) {
  const shown = typeof value === 'number' ? String(value) : value === undefined ? '' : String(value);
  const [text, setText] = useState(shown);
  const [bad, setBad] = useState(false);
  const focused = useRef(false);
  useEffect(() => {
    if (!focused.current) setText(shown);
  }, [shown]);
  return (
    <>
      <input
        id={`f-${field}`}
        className={`input${bad ? ' input-bad' : ''}`}
        type="number"
        inputMode={integer ? 'numeric' : 'decimal'}
        step={step ?? (integer ? 1 : 'any')}
        value={text}
        placeholder={placeholder}
        onFocus={() => (focused.current = true)}
        onBlur={() => {
          focused.current = false;
          setBad(false);
          setText(shown);
        }}
        onChange={(e) => {
          const t = e.target.value;
          setText(t);
          if (t.trim() === '') {
            setBad(false);
            onChange(undefined);
            return;
          }
          const n = Number(t);
          if (!Number.isFinite(n)) {
            setBad(true);
            return;
          }
          setBad(false);
          onChange(n);
        }}
      />
      {bad && <div className="field-problem error">Type a number.</div>}
    </>
  );
}

export function SelectInput({
  field,
  value,
  options,
  onChange,
  unsetLabel,
}: {
  field: string;
  value: string | undefined;
  options: { value: string; label: string }[];
  onChange: (v: string | undefined) => void;
  unsetLabel?: string;
}) {
  const known = value === undefined || options.some((o) => o.value === value);
  return (
    <select id={`f-${field}`} className="input" value={value ?? '__unset'} onChange={(e) => onChange(e.target.value === '__unset' ? undefined : e.target.value)}>
      <option value="__unset">{unsetLabel ?? '(not set)'}</option>
      {!known && <option value={value}>{value} (unknown)</option>}
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

/** A list of strings, one per line. */
export function ListInput({ field, value, onChange, placeholder }: { field: string; value: unknown; onChange: (v: string[] | undefined) => void; placeholder?: string }) {
  const lines = Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join('\n') : '';
  return (
    <TextInput
      field={field}
      value={lines}
      multiline
      rows={3}
      mono
      placeholder={placeholder}
      onChange={(t) => {
        const items = t.split('\n').map((s) => s.trim()).filter(Boolean);
        onChange(items.length || Array.isArray(value) ? items : undefined);
      }}
    />
  );
}

export function Section({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className="insp-section">
      <div className="insp-section-head">
        <h4>{title}</h4>
        {actions}
      </div>
      {children}
    </section>
  );
}

/**
 * A name that other parts of the document refer to (a step id, an agent name): renaming
 * rewrites those references, so it happens once, on blur or Enter, not per keystroke.
 * Empty or unchanged text goes back to the current name.
 */
export function RenameInput({
  field,
  value,
  mono,
  onRename,
  taken,
}: {
  field: string;
  value: string;
  mono?: boolean;
  onRename: (next: string) => void;
  /** Why a name cannot be used (another step has it), said as it is typed; null: it can. */
  taken?: (next: string) => string | null;
}) {
  const [text, setText] = useState(value);
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    // Renamed elsewhere (undo, the YAML view): show the new name.
    setShown(value);
    setText(value);
  }
  const next = text.trim();
  // Said while typing, not after the rename made three errors of one mistake (a duplicate id, and the
  // references that followed the old name to the other step).
  const clash = next && next !== value && taken ? taken(next) : null;
  return (
    <>
      <input
        id={`f-${field}`}
        className={`input${mono ? ' mono' : ''}${clash ? ' input-invalid' : ''}`}
        value={text}
        aria-invalid={clash ? true : undefined}
        aria-describedby={clash ? `f-${field}-clash` : undefined}
        onChange={(e) => setText(e.target.value)}
        onBlur={() => {
          if (clash) return; // kept as typed, with the reason beside it, until it is changed or Escape
          if (next && next !== value) onRename(next);
          else setText(value);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') (e.target as HTMLInputElement).blur();
          if (e.key === 'Escape') setText(value);
        }}
      />
      {clash && (
        <span className="field-problem error" id={`f-${field}-clash`} role="alert" data-testid={`f-${field}-clash`}>
          {clash}
        </span>
      )}
    </>
  );
}

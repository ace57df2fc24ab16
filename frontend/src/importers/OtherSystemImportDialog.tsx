// Import a Runsight workflow (YAML) or a Coqui loop definition (JSON): the
// server translates it (POST /api/v1/import, nothing saved), the dialog shows
// the field-by-field report, and "Open in editor" saves the YAML as a new
// workflow. Everything that came from the file or the server is shown as text.
import { Modal } from '../components/Modal';
import { useId, useRef, useState } from 'react';
import { ApiFieldError, errorText } from '../api/client';
import type { Diag } from '../api/types';
import { navigate } from '../router';
import { currentWorkspaceId } from '../workspaces/current';
import { importOther, saveImported, type ImportAnswer, type ImportKind } from './api';
import {
  bareMessage,
  countReport,
  countsSummary,
  groupReport,
  kindFromFileName,
  missingParameter,
  OUTCOME_HELP,
  OUTCOME_LABEL,
  OUTCOME_ORDER,
  parametersOf,
  type ParamRow,
} from './report';
import './import.css';

const MAX_FILE = 1024 * 1024;

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

interface ImportProblem {
  message: string;
  field: string | null;
  line: number | null;
  missing: string | null;
}

function problemOf(err: unknown): ImportProblem {
  if (err instanceof ApiFieldError) {
    return { message: bareMessage(err.message, err.field, err.line), field: err.field, line: err.line, missing: missingParameter(err.message) };
  }
  const message = errorText(err);
  return { message, field: null, line: null, missing: missingParameter(message) };
}

function diagWhere(d: Diag): string {
  const parts: string[] = [];
  if (d.path) parts.push(d.path);
  if (d.line) parts.push(`line ${d.line}`);
  return parts.join(', ');
}

function DiagList({ items, label }: { items: Diag[]; label: string }) {
  return (
    <ul className="plain-list" aria-label={label}>
      {items.map((d, i) => (
        <li key={i}>
          {d.message}
          {diagWhere(d) && <span className="muted small"> ({diagWhere(d)})</span>}
          {d.hint && <span className="muted small"> {d.hint}</span>}
        </li>
      ))}
    </ul>
  );
}

function ImportReport({ answer }: { answer: ImportAnswer }) {
  const counts = countReport(answer.report);
  const groups = groupReport(answer.report);
  return (
    <section aria-label="Import result" data-testid="other-import-result">
      <div className="import-summary">
        <span className={`pill ${answer.valid ? 'pill-ok' : 'pill-bad'}`} data-testid="other-import-validity">
          {answer.valid ? 'valid zenflow document' : `${answer.errors.length} error${answer.errors.length === 1 ? '' : 's'}: opens as a draft`}
        </span>
        {OUTCOME_ORDER.map((o) => (
          <span key={o} className={`outcome-pill outcome-${o}${counts[o] === 0 ? ' zero' : ''}`} title={OUTCOME_HELP[o]} data-testid={`count-${o}`}>
            {counts[o]} {o}
          </span>
        ))}
        <span className="sr-only">{countsSummary(counts)}</span>
      </div>
      {answer.notes.length > 0 && (
        <div className="banner banner-warning" role="status">
          <div className="banner-body">
            <strong>Behaves differently after import</strong>
            <ul className="plain-list" aria-label="Import notes">
              {answer.notes.map((n, i) => (
                <li key={i}>{n}</li>
              ))}
            </ul>
          </div>
        </div>
      )}
      {answer.errors.length > 0 && (
        <div className="banner banner-error" role="status">
          <div className="banner-body">
            <strong>Errors in the translated document</strong> (fix them in the editor)
            <DiagList items={answer.errors} label="Document errors" />
          </div>
        </div>
      )}
      {answer.warnings.length > 0 && (
        <div className="banner banner-warning" role="status">
          <div className="banner-body">
            <strong>Warnings</strong>
            <DiagList items={answer.warnings} label="Document warnings" />
          </div>
        </div>
      )}
      {groups.length === 0 ? (
        <p className="muted">The report is empty: the importer read no fields.</p>
      ) : (
        <div className="report-scroll">
          <table className="table compact report-table" aria-label="Import report" data-testid="import-report">
            <thead>
              <tr>
                <th>Source field</th>
                <th>Outcome</th>
                <th>In the zenflow document</th>
                <th>Note</th>
              </tr>
            </thead>
            {groups.map((g) => (
              <tbody key={g.outcome} data-outcome={g.outcome}>
                <tr className={`group-head outcome-${g.outcome}`}>
                  <td colSpan={4}>
                    {OUTCOME_LABEL[g.outcome]} ({g.entries.length})
                    <span className="small group-help"> · {OUTCOME_HELP[g.outcome]}</span>
                  </td>
                </tr>
                {g.entries.map((e, i) => (
                  <tr key={`${e.field}-${i}`} className={`row-${e.outcome}`} data-testid="report-row">
                    <td className="mono">{e.field}</td>
                    <td>
                      <span className={`outcome-pill outcome-${e.outcome}`}>{e.outcome}</span>
                    </td>
                    <td className="mono">{e.target ?? <span className="muted">nowhere</span>}</td>
                    <td className="note">{e.note || <span className="muted">same meaning</span>}</td>
                  </tr>
                ))}
              </tbody>
            ))}
          </table>
        </div>
      )}
      <details className="yaml-preview">
        <summary>Show the zenflow YAML</summary>
        <pre className="output" data-testid="other-import-yaml">
          {answer.yaml}
        </pre>
      </details>
    </section>
  );
}

function DialogBody({ onClose }: { onClose: () => void }) {
  const [kind, setKind] = useState<ImportKind>('runsight');
  const [text, setText] = useState('');
  const [fileName, setFileName] = useState<string | null>(null);
  const [rows, setRows] = useState<ParamRow[]>([]);
  const [answer, setAnswer] = useState<ImportAnswer | null>(null);
  const [problem, setProblem] = useState<ImportProblem | null>(null);
  const [busy, setBusy] = useState<'translate' | 'open' | null>(null);
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const valueInputs = useRef<(HTMLInputElement | null)[]>([]);
  const focusRow = useRef<number | null>(null);
  const ids = useId();

  // Any change makes the shown result stale.
  const changed = () => {
    setAnswer(null);
    setProblem(null);
  };

  const translate = async () => {
    setBusy('translate');
    setProblem(null);
    setAnswer(null);
    try {
      const params = parametersOf(rows);
      const result = await importOther({ kind, source: text, parameters: Object.keys(params).length ? params : undefined });
      setAnswer(result);
    } catch (e) {
      setProblem(problemOf(e));
    } finally {
      setBusy(null);
    }
  };

  const openInEditor = async () => {
    if (!answer) return;
    setBusy('open');
    setProblem(null);
    try {
      const wf = await saveImported(answer, currentWorkspaceId());
      onClose();
      navigate(`/workflows/${wf.id}`);
    } catch (e) {
      setProblem({ ...problemOf(e), message: `Could not save the imported workflow: ${errorText(e)}` });
      setBusy(null);
    }
  };

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    changed();
    if (file.size > MAX_FILE) {
      setProblem({ message: `${file.name} is larger than 1 MiB, the limit of a workflow file.`, field: null, line: null, missing: null });
      return;
    }
    try {
      const content = await file.text();
      setText(content);
      setFileName(file.name);
      const guessed = kindFromFileName(file.name);
      if (guessed) setKind(guessed);
    } catch (e) {
      setProblem({ message: `Could not read ${file.name}: ${errorText(e)}`, field: null, line: null, missing: null });
    }
  };

  const setRow = (i: number, patch: Partial<ParamRow>) => {
    changed();
    setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  };

  const addMissing = (name: string) => {
    const at = rows.findIndex((r) => r.name.trim() === name);
    if (at >= 0) {
      valueInputs.current[at]?.focus();
      return;
    }
    focusRow.current = rows.length;
    setRows([...rows, { name, value: '' }]);
  };

  const missingName = problem?.missing ?? null;

  return (
    <div
      className="modal modal-wide modal-xwide"
      role="dialog"
      aria-modal="true"
      aria-labelledby={`${ids}-title`}
      data-testid="other-import-dialog"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && !busy) onClose();
      }}
    >
      <header className="modal-head">
        <h3 id={`${ids}-title`}>Import from Runsight or Coqui</h3>
        <button className="icon-btn" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </header>
      <p className="muted">
        The server translates the file into a zenflow v1 workflow and reports, field by field, what was carried over, approximated or dropped.
        Nothing is saved until you open it in the editor.
      </p>

      <fieldset className="kind-choice">
        <legend>Source system</legend>
        {KINDS.map((k) => (
          <label key={k.kind}>
            <input
              type="radio"
              name={`${ids}-kind`}
              value={k.kind}
              checked={kind === k.kind}
              onChange={() => {
                changed();
                setKind(k.kind);
              }}
            />
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
          void onFile(e.dataTransfer.files[0]);
        }}
        data-testid="other-import-dropzone"
      >
        <textarea
          className="input mono"
          rows={10}
          placeholder={KINDS.find((k) => k.kind === kind)?.placeholder}
          value={text}
          onChange={(e) => {
            changed();
            setFileName(null);
            setText(e.target.value);
          }}
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
            void onFile(e.target.files?.[0]);
            e.target.value = '';
          }}
          data-testid="other-import-file"
        />
        <button className="btn ghost small" onClick={() => input.current?.click()}>
          Choose a file…
        </button>
        <span className="muted small">{fileName ? `Loaded ${fileName}` : 'or drop a file on the text box'}</span>
      </div>

      <div className="field" style={{ marginTop: 'var(--s3)' }}>
        <span className="field-label">Parameters (optional)</span>
        <div className="field-help">Values for the file's placeholders, such as a Coqui definition's {'{{parameters}}'}.</div>
        <div className="param-rows" style={{ marginTop: 6 }}>
          {rows.map((r, i) => (
            <div key={i} className={`param-row${missingName && r.name.trim() === missingName ? ' missing' : ''}`} data-testid="param-row">
              <input
                className="input mono"
                value={r.name}
                placeholder="name"
                aria-label={`Parameter ${i + 1} name`}
                onChange={(e) => setRow(i, { name: e.target.value })}
              />
              <span aria-hidden>=</span>
              <input
                className="input"
                value={r.value}
                placeholder="value"
                aria-label={`Parameter ${i + 1} value`}
                ref={(el) => {
                  valueInputs.current[i] = el;
                  if (el && focusRow.current === i) {
                    focusRow.current = null;
                    el.focus();
                  }
                }}
                onChange={(e) => setRow(i, { value: e.target.value })}
              />
              <button
                className="icon-btn"
                aria-label={`Remove parameter ${i + 1}`}
                onClick={() => {
                  changed();
                  setRows(rows.filter((_, j) => j !== i));
                }}
              >
                ×
              </button>
            </div>
          ))}
        </div>
        <button
          className="btn ghost small"
          onClick={() => {
            focusRow.current = null;
            setRows([...rows, { name: '', value: '' }]);
          }}
        >
          + Add a parameter
        </button>
      </div>

      {problem && (
        <div className="banner banner-error" role="alert" data-testid="other-import-error">
          <div className="banner-body">
            {missingName ? (
              <>
                <strong>Missing parameter: {missingName}</strong>
                <div>{problem.message}</div>
              </>
            ) : (
              <div>{problem.message}</div>
            )}
            {(problem.field || problem.line !== null) && (
              <dl className="error-where">
                {problem.field && (
                  <div>
                    <dt className="muted" style={{ display: 'inline' }}>
                      Field{' '}
                    </dt>
                    <dd className="mono" style={{ display: 'inline', margin: 0 }} data-testid="other-import-error-field">
                      {problem.field}
                    </dd>
                  </div>
                )}
                {problem.line !== null && (
                  <div>
                    <dt className="muted" style={{ display: 'inline' }}>
                      Line{' '}
                    </dt>
                    <dd style={{ display: 'inline', margin: 0 }} data-testid="other-import-error-line">
                      {problem.line}
                    </dd>
                  </div>
                )}
              </dl>
            )}
            {missingName && (
              <button className="btn small" style={{ marginTop: 6 }} onClick={() => addMissing(missingName)}>
                Give “{missingName}” a value
              </button>
            )}
          </div>
        </div>
      )}

      {answer && <ImportReport answer={answer} />}

      <footer className="modal-foot">
        <span className="spacer" />
        <button className="btn ghost" onClick={onClose}>
          Cancel
        </button>
        <button
          className={`btn ${answer ? 'ghost' : 'primary'}`}
          disabled={busy !== null || !text.trim()}
          onClick={() => void translate()}
          data-testid="other-import-translate"
        >
          {busy === 'translate' ? 'Translating…' : answer ? 'Translate again' : 'Translate'}
        </button>
        {answer && (
          <button className="btn primary" disabled={busy !== null} onClick={() => void openInEditor()} data-testid="other-import-open">
            {busy === 'open' ? 'Opening…' : 'Open in editor'}
          </button>
        )}
      </footer>
    </div>
  );
}

export function OtherSystemImportDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  if (!open) return null;
  return (
    <Modal onClose={onClose}>
      <DialogBody onClose={onClose} />
    </Modal>
  );
}

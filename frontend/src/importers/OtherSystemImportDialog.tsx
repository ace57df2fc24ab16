// Import a Runsight workflow (YAML) or a Coqui loop definition (JSON): the
// server translates it (POST /api/v1/import, nothing saved), the dialog shows
// the field-by-field report, and "Open in editor" saves the YAML as a new
// workflow. Everything that came from the file or the server is shown as text.
import { Modal } from '../components/Modal';
import { useId } from 'react';
import { ImportProblemBanner } from './ImportProblemBanner';
import { ImportReport } from './ImportReport';
import { ParameterRows } from './ParameterRows';
import { SourceInput } from './SourceInput';
import { useOtherImport } from './useOtherImport';
import './import.css';

function DialogBody({ onClose }: { onClose: () => void }) {
  const { kind, chooseKind, text, editText, fileName, onFile, params, answer, problem, busy, translate, openInEditor } = useOtherImport(onClose);
  const ids = useId();
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
      <SourceInput kind={kind} onKind={chooseKind} text={text} onText={editText} fileName={fileName} onFile={(f) => void onFile(f)} />
      <ParameterRows params={params} missingName={missingName} />
      {problem && <ImportProblemBanner problem={problem} onAddMissing={params.addMissing} />}
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

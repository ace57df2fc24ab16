import { Modal } from '../components/Modal';
import { useRef, useState } from 'react';
import { api, errorText } from '../api/client';
import { isObject } from '../doc/types';
import { useEditorStore } from '../store/context';
import { layoutMissing } from '../canvas/arrange';

/** Reads a dropped or picked file as text. */
export async function fileText(file: File): Promise<string> {
  if (file.size > 1024 * 1024) throw new Error(`${file.name} is larger than 1 MiB, the limit of a workflow file.`);
  return file.text();
}

/** Imports text into the editor (undoable): the server parses; the layout comes from elkjs. */
export async function importText(store: ReturnType<typeof useEditorStore>, text: string): Promise<string | null> {
  const checked = await api.validate({ source: text });
  if (!isObject(checked.document)) {
    const first = checked.errors[0];
    return first ? `${first.message}${first.line ? ` (line ${first.line})` : ''}` : 'This text is not a workflow document.';
  }
  // JSON comes in as JSON; the YAML view shows the server's YAML rendering of it.
  const source = text.trimStart().startsWith('{') && checked.yaml ? checked.yaml : text;
  store.getState().replaceAll(checked.document, source, null);
  await layoutMissing(store);
  store.getState().requestFit();
  return null;
}

export function ImportDialog({ onClose }: { onClose: () => void }) {
  const store = useEditorStore();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const run = async (t: string) => {
    setBusy(true);
    setError(null);
    try {
      const problem = await importText(store, t);
      if (problem) setError(problem);
      else onClose();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    try {
      await run(await fileText(file));
    } catch (e) {
      setError(errorText(e));
    }
  };

  return (
    <Modal onClose={onClose} label="Import a workflow">
      <div className="modal" data-testid="import-dialog">
        <header className="modal-head">
          <h3>Import a workflow</h3>
          <button className="icon-btn" aria-label="Close" onClick={onClose}>
            ×
          </button>
        </header>
        <p className="muted">Paste zenflow YAML or JSON, pick a file, or drop one here. It replaces the current document (undo brings it back); comments are kept.</p>
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
        >
          <textarea
            className="input mono"
            rows={12}
            placeholder={'name: my-workflow\nsteps:\n  - id: first\n    instructions: Say hello.'}
            value={text}
            onChange={(e) => setText(e.target.value)}
            aria-label="Workflow text"
            data-testid="import-text"
            data-autofocus
          />
        </div>
        {error && (
          <div className="banner banner-error" role="alert">
            {error}
          </div>
        )}
        <footer className="modal-foot">
          <input ref={input} type="file" accept=".yaml,.yml,.json,text/yaml,application/json" hidden onChange={(e) => void onFile(e.target.files?.[0])} data-testid="import-file" />
          <button className="btn ghost" onClick={() => input.current?.click()}>
            Choose a file…
          </button>
          <span className="spacer" />
          <button className="btn ghost" onClick={onClose}>
            Cancel
          </button>
          <button className="btn primary" disabled={busy || !text.trim()} onClick={() => void run(text)} data-testid="import-submit">
            {busy ? 'Importing…' : 'Import'}
          </button>
        </footer>
      </div>
    </Modal>
  );
}

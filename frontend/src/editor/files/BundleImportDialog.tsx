// Import a workflow's folder: a zip, a folder chosen or dropped. Several top-level workflows: the person picks
// the main one, or imports each as its own workflow (each with the files it references).
import { useEffect, useRef, useState, type DragEvent } from 'react';
import { errorText } from '../../api/client';
import { Link } from '../../components/Link';
import { Modal } from '../../components/Modal';
import { navigate } from '../../router';
import { mainCandidates, pickedPaths, zipPaths } from './bundleCandidates';
import { filesOfEntry, filesOfPicked, zipFiles, type PickedFile } from './bundleZip';
import { folderApi, type BundleImported } from '../../nodes/folder/folderApi';
import './files.css';

const ALL = '*';

interface Chosen {
  name: string;
  zip: Uint8Array;
  candidates: string[];
}

async function fromZip(file: File): Promise<Chosen> {
  const zip = new Uint8Array(await file.arrayBuffer());
  return { name: file.name, zip, candidates: mainCandidates(zipPaths(zip)) };
}

function fromFiles(name: string, files: PickedFile[]): Chosen {
  return { name, zip: zipFiles(files), candidates: mainCandidates(pickedPaths(files)) };
}

export function BundleImportDialog({ workspace, initial, onClose }: { workspace: number | null; initial?: File; onClose: () => void }) {
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const [main, setMain] = useState<string>('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<BundleImported | null>(null);

  const take = async (read: () => Promise<Chosen>) => {
    setError(null);
    setBusy(true);
    try {
      const c = await read();
      setChosen(c);
      setMain(c.candidates.length === 1 ? c.candidates[0] : '');
      if (!c.candidates.length) setError(`${c.name} has no workflow (.yaml, .yml or .json) at its top level.`);
    } catch (e) {
      setError(`Could not read it: ${errorText(e)}`);
    } finally {
      setBusy(false);
    }
  };
  // A zip chosen before the dialog opened (the list's Import button) is read at once.
  const opened = useRef(false);
  useEffect(() => {
    if (!initial || opened.current) return;
    opened.current = true;
    void take(() => fromZip(initial));
  });

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    const item = e.dataTransfer.items?.[0]?.webkitGetAsEntry?.();
    const file = e.dataTransfer.files?.[0];
    if (item?.isDirectory) void take(async () => fromFiles(item.name, await filesOfEntry(item)));
    else if (file) void take(() => fromZip(file));
  };

  const submit = async () => {
    if (!chosen || !main) return;
    setBusy(true);
    setError(null);
    const zip = new File([chosen.zip as BlobPart], chosen.name.endsWith('.zip') ? chosen.name : `${chosen.name}.zip`, { type: 'application/zip' });
    try {
      const result = await folderApi.importBundle(zip, main, workspace);
      if (result.workflows.length === 1 && !Object.keys(result.skipped).length) {
        onClose();
        void navigate(`/workflows/${result.workflows[0].id}`);
      } else setDone(result);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal onClose={onClose} label="Import a workflow folder">
      <div className="modal" data-testid="bundle-import">
        <h2>Import a workflow folder</h2>
        {done ? (
          <>
            <p role="status">
              Imported {done.workflows.length} {done.workflows.length === 1 ? 'workflow' : 'workflows'}, each with the files it uses.
            </p>
            <ul className="bundle-made" data-testid="bundle-made">
              {done.workflows.map((w) => (
                <li key={w.id}>
                  <Link to={`/workflows/${w.id}`}>{w.name}</Link> <span className="muted small">({w.main_path}, {w.files} {w.files === 1 ? 'file' : 'files'}{w.valid ? '' : ', has problems'})</span>
                </li>
              ))}
            </ul>
            {Object.keys(done.skipped).length > 0 && (
              <p className="small muted">Skipped: {Object.entries(done.skipped).map(([p, why]) => `${p} (${why})`).join('; ')}</p>
            )}
            <div className="modal-actions">
              <button type="button" className="btn primary" onClick={onClose}>
                Done
              </button>
            </div>
          </>
        ) : (
          <>
            <div className="bundle-drop" onDragOver={(e) => e.preventDefault()} onDrop={onDrop} data-testid="bundle-drop">
              <p>Drop a folder or a .zip here, or choose one:</p>
              <label className="btn small">
                Choose a .zip
                <input type="file" accept=".zip,application/zip" hidden onChange={(e) => e.target.files?.[0] && void take(() => fromZip(e.target.files![0]))} data-testid="bundle-zip-input" />
              </label>{' '}
              <label className="btn small">
                Choose a folder
                <input
                  type="file"
                  hidden
                  // @ts-expect-error: the folder picker's attribute is not in React's types
                  webkitdirectory=""
                  onChange={(e) => e.target.files?.length && void take(async () => fromFiles(e.target.files![0].webkitRelativePath.split('/')[0] || 'folder', await filesOfPicked(e.target.files!)))}
                />
              </label>
            </div>
            {busy && <p className="muted">Reading…</p>}
            {chosen && chosen.candidates.length > 0 && (
              <fieldset className="bundle-main">
                <legend>Which is the main workflow of {chosen.name}?</legend>
                {chosen.candidates.map((c) => (
                  <label key={c}>
                    <input type="radio" name="bundle-main" value={c} checked={main === c} onChange={() => setMain(c)} /> {c}
                    <span className="muted small"> (the whole folder comes with it)</span>
                  </label>
                ))}
                {chosen.candidates.length > 1 && (
                  <label>
                    <input type="radio" name="bundle-main" value={ALL} checked={main === ALL} onChange={() => setMain(ALL)} data-testid="bundle-all" /> Each one as its own workflow
                    <span className="muted small"> (each with only the files it references)</span>
                  </label>
                )}
              </fieldset>
            )}
            {error && (
              <p role="alert" className="small">
                {error}
              </p>
            )}
            <div className="modal-actions">
              <button type="button" className="btn" onClick={onClose}>
                Cancel
              </button>
              <button type="button" className="btn primary" disabled={!chosen || !main || busy} onClick={() => void submit()} data-testid="bundle-import-go">
                Import
              </button>
            </div>
          </>
        )}
      </div>
    </Modal>
  );
}

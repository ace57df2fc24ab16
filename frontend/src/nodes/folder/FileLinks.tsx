// Links from the inspector's fields to the workflow's folder: a `@prompts/x.md` value opens its file in the Files
// tab (or offers to create it), and a step's context files are listed with their size and kind.
import { useEffect, useState } from 'react';
import { errorText } from '../../api/client';
import { formatBytes } from '../../format/bytes';
import { useEditor, useEditorStore } from '../../store/context';
import { folderApi, type FolderFile } from './folderApi';
import { afterFolderSave } from './folderSaved';
import { atFile, dirOf, fileKind, joinPath, type FileKind } from './folderPaths';
import { folderListing } from './includeLookup';
import './folder.css';

/** The folder's files at the editor's version (null while loading, or before the workflow is saved). */
function useFolderFiles(): FolderFile[] | null {
  const workflowId = useEditor((s) => s.workflowId);
  const version = useEditor((s) => s.savedVersion);
  const [files, setFiles] = useState<{ key: string; files: FolderFile[] } | null>(null);
  const key = `${workflowId}:${version}`;
  useEffect(() => {
    if (workflowId === null) return;
    let live = true;
    folderListing(workflowId, version).then(
      (f) => live && setFiles({ key: `${workflowId}:${version}`, files: f }),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [workflowId, version]);
  return files?.key === key ? files.files : null;
}

/** A reference as the folder path it names (relative to the main file's folder), or null when it cannot be one. */
function inFolder(files: FolderFile[], ref: string): string | null {
  return joinPath(dirOf(files.find((f) => f.main)?.path ?? ''), ref);
}

function useShowFile(): (path: string) => void {
  const store = useEditorStore();
  return (path) => store.getState().select({ kind: 'file', path });
}

/** Under an instructions or prompt field whose value is `@path`: open that file, or create it when missing. */
export function AtFileLink({ value }: { value: unknown }) {
  const ref = atFile(value);
  const workflowId = useEditor((s) => s.workflowId);
  const readOnly = useEditor((s) => s.readOnly);
  const files = useFolderFiles();
  const show = useShowFile();
  const store = useEditorStore();
  const [error, setError] = useState<string | null>(null);
  if (!ref) return null;
  if (workflowId === null)
    return (
      <p className="field-help" data-testid="at-file">
        Save the workflow to keep {ref} in its folder.
      </p>
    );
  if (!files) return null;
  const path = inFolder(files, ref);
  if (path === null)
    return (
      <p className="field-help folder-error" data-testid="at-file">
        {ref} is outside the workflow's folder.
      </p>
    );
  if (files.some((f) => f.path === path))
    return (
      <p className="field-help" data-testid="at-file">
        <button type="button" className="link-btn" onClick={() => show(path)} data-testid="at-file-open">
          Open {path}
        </button>
      </p>
    );
  const create = async () => {
    try {
      const saved = await folderApi.writeText(workflowId, path, '');
      afterFolderSave(store, saved.version);
      show(path);
    } catch (e) {
      setError(errorText(e));
    }
  };
  return (
    <p className="field-help" data-testid="at-file">
      <span className="folder-error">{path} is not in the workflow's folder.</span>{' '}
      {!readOnly && (
        <button type="button" className="link-btn" onClick={() => void create()} data-testid="at-file-create">
          Create it
        </button>
      )}
      {error && <span role="alert"> {error}</span>}
    </p>
  );
}

const KIND_LABEL: Record<FileKind, string> = { text: 'text', image: 'image', pdf: 'PDF', binary: 'binary' };

/** A step's context files: each with its kind and size, opening in the Files tab; a missing one says so. */
export function ContextFilesList({ value }: { value: unknown }) {
  const workflowId = useEditor((s) => s.workflowId);
  const files = useFolderFiles();
  const show = useShowFile();
  const refs = Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '') : [];
  if (!refs.length || workflowId === null || !files) return null;
  return (
    <ul className="file-refs" data-testid="context-files" aria-label="Context files in the folder">
      {refs.map((ref, i) => {
        const path = inFolder(files, ref);
        const file = path === null ? undefined : files.find((f) => f.path === path);
        const kind = file ? KIND_LABEL[fileKind(file.path)] : 'missing';
        return (
          <li key={`${i}:${ref}`} data-testid="context-file" data-kind={kind}>
            {file ? (
              <button type="button" className="link-btn mono" onClick={() => show(file.path)}>
                {file.path}
              </button>
            ) : (
              <span className="mono">{ref}</span>
            )}
            <span className={`file-ref-kind${file ? '' : ' file-ref-missing'}`}>{kind}</span>
            {file ? <span className="muted small">{formatBytes(file.size)}</span> : <span className="small file-ref-missing">{path === null ? 'outside the folder' : 'not in the folder'}</span>}
          </li>
        );
      })}
    </ul>
  );
}

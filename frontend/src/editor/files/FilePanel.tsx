// The workflow's folder in the editor: its files as a tree; Markdown, YAML and text edited in CodeMirror (an
// included workflow checked as you type, like the main one); images and PDFs shown by kind and size; files
// created, uploaded, renamed and deleted. Every change is a new version of the workflow (the server re-checks
// the main document against the new folder and says whether it is still valid).
import { useEffect, useMemo, useRef, useState } from 'react';
import { yaml as yamlLang } from '@codemirror/lang-yaml';
import { api, errorText } from '../../api/client';
import type { Diag } from '../../api/types';
import { CodeEditor } from '../../components/CodeEditor';
import { formatBytes } from '../../format/bytes';
import { FileTree } from '../../run/FileTree';
import { buildTree } from '../../run/fileTree';
import { bundleZipUrl, fileBase64, folderApi, type FileContent, type FolderFile, type FolderSaved } from '../../nodes/folder/folderApi';
import { fileKind, isTextName, pathProblem } from '../../nodes/folder/folderPaths';
import './files.css';

/** How long typing rests before an included workflow is checked. */
const CHECK_AFTER_MS = 400;

function isWorkflowName(path: string): boolean {
  return /\.(ya?ml|json)$/i.test(path);
}

function kindOf(path: string): string {
  const ext = /\.([^./]+)$/.exec(path)?.[1]?.toLowerCase() ?? '';
  if (['png', 'jpg', 'jpeg', 'gif', 'webp'].includes(ext)) return `${ext.toUpperCase()} image`;
  if (ext === 'pdf') return 'PDF document';
  return ext ? `.${ext} file` : 'file';
}

function useIncludeCheck(text: string | null, enabled: boolean): Diag[] | null {
  const [problems, setProblems] = useState<Diag[] | null>(null);
  useEffect(() => {
    if (!enabled || text === null) return;
    const ctl = new AbortController();
    const t = setTimeout(() => {
      api.validate({ source: text }, ctl.signal).then(
        (r) => setProblems([...r.errors, ...r.warnings]),
        () => undefined,
      );
    }, CHECK_AFTER_MS);
    return () => {
      clearTimeout(t);
      ctl.abort();
    };
  }, [text, enabled]);
  return enabled ? problems : null;
}

function Viewer({
  workflowId,
  file,
  readOnly,
  onSaved,
  onError,
}: {
  workflowId: number;
  file: FolderFile;
  readOnly: boolean;
  onSaved: (saved: FolderSaved) => void;
  onError: (message: string) => void;
}) {
  const [content, setContent] = useState<FileContent | null>(null);
  const [draft, setDraft] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  // Keyed by the file's path: a new file is a new viewer, so its state starts empty.
  useEffect(() => {
    folderApi.read(workflowId, file.path).then(setContent, (e) => onError(errorText(e)));
  }, [workflowId, file.path, onError]);
  const workflowFile = isWorkflowName(file.path);
  const problems = useIncludeCheck(draft ?? content?.text ?? null, workflowFile && content?.text !== null);
  const extensions = useMemo(() => (workflowFile ? [yamlLang()] : []), [workflowFile]);
  if (!content) return <p className="muted">Opening {file.path}…</p>;
  // A PDF may well be ASCII, but it is an attachment to the model, not text to edit.
  const text = fileKind(file.path) === 'image' || fileKind(file.path) === 'pdf' ? null : content.text;
  if (text === null)
    return (
      <div className="folder-binary" data-testid="folder-binary">
        <p>
          <strong>{file.path}</strong>: {kindOf(file.path)}, {formatBytes(content.size)}.
        </p>
        <p className="muted small">A context file like this reaches the model as an attachment where the provider supports it, and is named in the prompt where it does not.</p>
      </div>
    );
  const changed = draft !== null && draft !== text;
  const save = async () => {
    if (draft === null) return;
    setSaving(true);
    try {
      const saved = await folderApi.writeText(workflowId, file.path, draft);
      setContent({ ...content, text: draft, size: new Blob([draft]).size });
      setDraft(null);
      onSaved(saved);
    } catch (e) {
      onError(errorText(e));
    } finally {
      setSaving(false);
    }
  };
  return (
    <div className="folder-text">
      {content.truncated && <p className="muted small">Only the first 512 KiB are shown; the file cannot be edited here.</p>}
      <CodeEditor
        value={draft ?? text}
        onChange={setDraft}
        extensions={extensions}
        readOnly={readOnly || content.truncated}
        lineNumbers
        ariaLabel={`Contents of ${file.path}`}
        testId="folder-file-editor"
      />
      {problems && problems.length > 0 && (
        <ul className="folder-problems" data-testid="folder-file-problems" aria-label={`Problems in ${file.path}`}>
          {problems.map((p, i) => (
            <li key={i}>
              {p.severity === 'warning' ? 'Warning' : 'Error'}
              {p.line ? ` (line ${p.line})` : ''}: {p.message}
            </li>
          ))}
        </ul>
      )}
      {!readOnly && !content.truncated && (
        <div className="folder-actions">
          <button type="button" className="btn primary small" disabled={!changed || saving} onClick={() => void save()} data-testid="folder-save-file">
            {saving ? 'Saving…' : changed ? 'Save file' : 'Saved'}
          </button>
          {changed && (
            <button type="button" className="btn ghost small" onClick={() => setDraft(null)}>
              Discard changes
            </button>
          )}
        </div>
      )}
    </div>
  );
}

type Asking = { kind: 'new' } | { kind: 'rename'; path: string } | null;

export function FilePanel({
  workflowId,
  readOnly,
  show = null,
  onSaved,
}: {
  workflowId: number | null;
  readOnly: boolean;
  /** A file to show, chosen elsewhere (a @file link, a context file). */
  show?: string | null;
  onSaved?: (version: number) => void;
}) {
  const [files, setFiles] = useState<FolderFile[] | null>(null);
  const [chosen, setChosen] = useState<string | null>(show);
  const [shown, setShown] = useState(show);
  if (show !== shown) {
    setShown(show);
    if (show) setChosen(show);
  }
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [asking, setAsking] = useState<Asking>(null);
  const [typed, setTyped] = useState('');
  const upload = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (workflowId === null) return;
    folderApi.list(workflowId).then(setFiles, (e) => setError(errorText(e)));
  }, [workflowId]);

  if (workflowId === null) return <p className="muted">Save the workflow first: then it can hold prompts, included workflows and context files.</p>;
  if (error && !files) return <p role="alert">{error}</p>;
  if (!files) return <p className="muted">Loading the folder…</p>;

  const others = files.filter((f) => !f.main);
  const existing = files.map((f) => f.path);
  const tree = buildTree(others.map((f) => ({ path: f.path, size: f.size, stored: true, reason: '' })));
  const chosenFile = others.find((f) => f.path === chosen) ?? null;
  const saved = (s: FolderSaved, words: string) => {
    setFiles(s.files);
    setError(null);
    setNotice(`${words} Version ${s.version} saved${s.valid ? '.' : ': the workflow now has problems (see the problems panel after it reloads).'}`);
    onSaved?.(s.version);
  };
  const act = async (run: () => Promise<FolderSaved>, words: string, next: string | null) => {
    try {
      saved(await run(), words);
      setChosen(next);
      setAsking(null);
    } catch (e) {
      setError(errorText(e));
    }
  };
  const problem = asking ? pathProblem(typed, existing.filter((p) => asking.kind !== 'rename' || p !== asking.path)) : null;
  const confirm = () => {
    if (!asking || problem) return;
    const path = typed.trim();
    if (asking.kind === 'new') void act(() => folderApi.writeText(workflowId, path, ''), `Created ${path}.`, path);
    else void act(() => folderApi.rename(workflowId, asking.path, path), `Renamed ${asking.path} to ${path}.`, path);
  };
  const onUpload = async (list: FileList | null) => {
    for (const f of Array.from(list ?? [])) {
      const run = isTextName(f.name) ? async () => folderApi.writeText(workflowId, f.name, await f.text()) : async () => folderApi.writeBytes(workflowId, f.name, await fileBase64(f));
      await act(run, `Added ${f.name}.`, f.name);
    }
    if (upload.current) upload.current.value = '';
  };

  return (
    <section className="folder-panel" data-testid="folder-panel" aria-label="Workflow folder">
      <div className="folder-head">
        <span className="muted small">
          {files.find((f) => f.main)?.path ?? 'workflow.yaml'} and {others.length} {others.length === 1 ? 'file' : 'files'}
        </span>
        <a className="btn ghost small" href={bundleZipUrl(workflowId)} download data-testid="folder-download">
          Download the folder (.zip)
        </a>
      </div>
      {notice && (
        <p className="small" role="status" data-testid="folder-notice">
          {notice}
        </p>
      )}
      {error && (
        <p className="small folder-error" role="alert">
          {error}
        </p>
      )}
      {!readOnly && (
        <div className="folder-actions">
          <button type="button" className="btn small" onClick={() => (setAsking({ kind: 'new' }), setTyped(''))} data-testid="folder-new-file">
            New file…
          </button>
          <button type="button" className="btn small" onClick={() => upload.current?.click()}>
            Add files…
          </button>
          <input ref={upload} type="file" multiple hidden aria-hidden onChange={(e) => void onUpload(e.target.files)} />
          {chosenFile && (
            <>
              <button type="button" className="btn ghost small" onClick={() => (setAsking({ kind: 'rename', path: chosenFile.path }), setTyped(chosenFile.path))}>
                Rename…
              </button>
              <button
                type="button"
                className="btn ghost small"
                onClick={() => window.confirm(`Delete ${chosenFile.path} from the workflow's folder? Earlier versions keep it.`) && void act(() => folderApi.remove(workflowId, chosenFile.path), `Deleted ${chosenFile.path}.`, null)}
              >
                Delete
              </button>
            </>
          )}
        </div>
      )}
      {asking && (
        <form
          className="folder-ask"
          onSubmit={(e) => {
            e.preventDefault();
            confirm();
          }}
        >
          <label>
            {asking.kind === 'new' ? 'New file path' : `Rename ${asking.path} to`}
            <input autoFocus value={typed} onChange={(e) => setTyped(e.target.value)} aria-invalid={!!problem} aria-describedby="folder-path-problem" data-testid="folder-path" />
          </label>
          <span id="folder-path-problem" className="small muted">
            {problem ?? ' '}
          </span>
          <button type="submit" className="btn primary small" disabled={!!problem}>
            {asking.kind === 'new' ? 'Create' : 'Rename'}
          </button>
          <button type="button" className="btn ghost small" onClick={() => setAsking(null)}>
            Cancel
          </button>
        </form>
      )}
      <div className="folder-body">
        <div className="folder-tree">
          <FileTree tree={tree} chosen={chosen} onChoose={setChosen} />
        </div>
        <div className="folder-view">
          {chosenFile ? (
            <Viewer key={chosenFile.path} workflowId={workflowId} file={chosenFile} readOnly={readOnly} onSaved={(s) => saved(s, `Saved ${chosenFile.path}.`)} onError={setError} />
          ) : (
            <p className="muted small">Choose a file to see it. Steps name files as “@prompts/x.md” in instructions and prompts, and in contextFiles.</p>
          )}
        </div>
      </div>
    </section>
  );
}

// The pending step's context files at a breakpoint's hold, as its prompt will have them, each with an edit for
// this execution only (the file in the run's folder is left as it is). Their texts are the run's files: untrusted,
// so they are only ever shown as text (a textarea's value, React-escaped), never as markup.
import { useId, useState } from 'react';
import type { DebugIn } from '../../api/openapi.gen';

export type HoldFile = { path: string; text: string | null; truncated: boolean; edited: boolean; size: number | null };

/** The hold's `inputs.context_files`, typed; anything not shaped as one is left out. */
export function contextFilesOf(inputs: Record<string, unknown>): HoldFile[] {
  const raw = inputs.context_files;
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((f: unknown) => {
    if (!f || typeof f !== 'object') return [];
    const o = f as Record<string, unknown>;
    if (typeof o.path !== 'string' || !o.path) return [];
    return [{ path: o.path, text: typeof o.text === 'string' ? o.text : null, truncated: o.truncated === true, edited: o.edited === true, size: typeof o.size === 'number' ? o.size : null }];
  });
}

/** What a file's row says beside its path. */
export function fileNote(file: HoldFile): string {
  if (file.edited) return 'edited for this execution';
  if (file.text === null) return file.size === null ? 'not read' : `binary (${file.size} bytes): text typed here goes to the prompt instead`;
  return file.truncated ? 'shown cut: the text you send replaces the whole file' : '';
}

type Props = { files: HoldFile[]; editable: boolean; off: boolean; send(body: DebugIn, done: string): void };

export function HoldContextFiles({ files, editable, off, send }: Props) {
  if (!files.length) return null;
  return (
    <details open className="field" data-testid="hold-context-files">
      <summary>Context files{editable ? ' (edit one for this execution only)' : ''}</summary>
      {files.map((f) => (
        <FileRow key={f.path} file={f} editable={editable} off={off} send={send} />
      ))}
    </details>
  );
}

function FileRow({ file, editable, off, send }: { file: HoldFile } & Omit<Props, 'files'>) {
  const id = useId();
  const [value, setValue] = useState(file.text ?? '');
  const note = fileNote(file);
  return (
    <div className="field" data-testid="hold-context-file" data-path={file.path}>
      <label htmlFor={id}>
        <code>{file.path}</code> {note && <span className="muted small">{note}</span>}
      </label>
      <textarea id={id} rows={4} value={value} readOnly={!editable} onChange={(e) => setValue(e.target.value)} data-testid="hold-context-file-text" />
      {editable && (
        <button className="btn small" disabled={off || value === (file.text ?? '')} onClick={() => send({ action: 'edit', field: 'context_file', path: file.path, value }, `Edit of ${file.path} sent`)} data-testid="hold-save-context-file">
          Use this text
        </button>
      )}
    </div>
  );
}

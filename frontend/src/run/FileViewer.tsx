import { useMemo } from 'react';
import { api } from '../api/client';
import type { SnapshotFileContent } from '../api/types';
import { CodeEditor } from '../components/CodeEditor';
import { highlightFor } from '../components/codeHighlight';
import { languageOf } from '../components/codeLanguage';
import { formatBytes } from '../format/bytes';
import { useSnapshotData } from './useSnapshotData';

/** One file of a snapshot, read only, highlighted by its extension. */
export function FileViewer({ runId, snapshot, path }: { runId: string; snapshot: number; path: string }) {
  const file = useSnapshotData<SnapshotFileContent>(`${runId}/${snapshot}/file/${path}`, () => api.snapshotFile(runId, snapshot, path));
  const extensions = useMemo(() => highlightFor(languageOf(path)), [path]);
  return (
    <div className="file-viewer" data-testid="file-viewer" data-path={path}>
      <div className="file-viewer-head">
        <span className="mono ellipsis" title={path}>
          {path}
        </span>
        {file.data && <span className="muted small nowrap">{formatBytes(file.data.size)}</span>}
      </div>
      {file.loading && <p className="muted small">Loading…</p>}
      {file.error && <div className="field-problem error">{file.error}</div>}
      {file.data && file.data.text === null && (
        <p className="muted small">{file.data.stored ? 'Binary: its content is not shown.' : `Its content is not shown: ${file.data.reason || 'not stored: too big to keep'}.`}</p>
      )}
      {file.data && file.data.text !== null && (
        <>
          {/* Remounted per file: the editor takes its language when it is built. */}
          <CodeEditor key={`${snapshot}:${path}`} value={file.data.text} readOnly lineNumbers extensions={extensions} className="cm-file" ariaLabel={`Contents of ${path}`} testId="file-content" />
          {file.data.truncated && <p className="muted small">Shown in part: the file is longer than the viewer shows.</p>}
        </>
      )}
    </div>
  );
}

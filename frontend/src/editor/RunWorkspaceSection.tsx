// The run dialog's Workspace part: the files the run starts from (none, an uploaded zip, or the
// files an earlier run of this workflow ended with) and the tools that ask before running.
import { useEffect, useId, useRef, useState } from 'react';
import { api, errorText } from '../api/client';
import type { Run } from '../api/types';
import { mcpServers } from '../forms/mcpTools';
import { ToolChecklist } from '../forms/ToolChecklist';
import { toggled, toolChoices } from '../forms/toolChoices';
import { useRegisteredTools } from '../forms/useRegisteredTools';
import { earlierRunLabel, startableRuns, uploadErrorText, uploadSummary, type StartFrom, type WorkspaceStart } from './runWorkspace';

export function RunWorkspaceSection({
  workflowId,
  start,
  onStart,
  askBefore,
  onAskBefore,
}: {
  workflowId: number | null;
  start: WorkspaceStart;
  onStart: (update: (prev: WorkspaceStart) => WorkspaceStart) => void;
  askBefore: string[];
  onAskBefore: (names: string[]) => void;
}) {
  const { tools, error: toolsError } = useRegisteredTools();
  const name = useId();
  return (
    <fieldset className="run-workspace" data-testid="run-workspace">
      <legend className="field-label">Workspace</legend>
      <div className="field" role="radiogroup" aria-label="Start from files">
        <span className="muted small">Start from files</span>
        <div className="checks">
          {(
            [
              ['none', 'None'],
              ['upload', 'Upload a zip'],
              ['run', 'Files of an earlier run'],
            ] as [StartFrom, string][]
          ).map(([from, label]) => (
            <label key={from} className="check">
              <input
                type="radio"
                name={name}
                checked={start.from === from}
                disabled={from === 'run' && workflowId === null}
                onChange={() => onStart((prev) => ({ ...prev, from }))}
                data-testid={`ws-start-${from}`}
              />
              {label}
            </label>
          ))}
        </div>
        {/* Kept while hidden: the chosen file stays with its upload when the choice comes back to it. */}
        <div hidden={start.from !== 'upload'}>
          <ZipUpload start={start} onStart={onStart} />
        </div>
        {start.from === 'run' && workflowId !== null && <EarlierRunPicker workflowId={workflowId} start={start} onStart={onStart} />}
      </div>
      <div className="field">
        <span className="muted small" id={`${name}-ask`}>
          Ask before running (a person approves each call on the run page)
        </span>
        {toolsError && <div className="field-problem warning">Could not load this server’s tools: {toolsError}</div>}
        <ToolChecklist
          choices={toolChoices(tools, askBefore)}
          onToggle={(tool, on) => onAskBefore(toggled(askBefore, tool, on))}
          testIdPrefix="ask-before"
          label="Ask before running"
          servers={mcpServers(tools)}
          compact
        />
      </div>
    </fieldset>
  );
}

/** Uploads the chosen zip at once, and says what it held or why the server refused it. */
function ZipUpload({ start, onStart }: { start: WorkspaceStart; onStart: (update: (prev: WorkspaceStart) => WorkspaceStart) => void }) {
  const [error, setError] = useState<string | null>(null);
  const asked = useRef(0);
  const inputId = useId();

  // The latest choice's answer wins: an older upload that answers late is ignored.
  const upload = async (file: File | undefined) => {
    const n = ++asked.current;
    setError(null);
    if (!file) {
      onStart((prev) => ({ ...prev, upload: null, uploading: false }));
      return;
    }
    onStart((prev) => ({ ...prev, upload: null, uploading: true }));
    try {
      const answer = await api.uploadWorkspace(file);
      if (n === asked.current) onStart((prev) => ({ ...prev, upload: answer, uploading: false }));
    } catch (e) {
      if (n !== asked.current) return;
      setError(uploadErrorText(e));
      onStart((prev) => ({ ...prev, upload: null, uploading: false }));
    }
  };

  return (
    <div className="ws-upload">
      <label className="sr-only" htmlFor={inputId}>
        Zip of files to start from
      </label>
      <input id={inputId} type="file" accept=".zip,application/zip" onChange={(e) => void upload(e.target.files?.[0])} aria-describedby={`${inputId}-status`} data-testid="ws-upload-input" />
      <span id={`${inputId}-status`} className={`small${error ? ' field-problem error' : ' muted'}`} role={error ? 'alert' : 'status'} data-testid="ws-upload-status">
        {error ?? (start.uploading ? 'Uploading…' : start.upload ? uploadSummary(start.upload) : '')}
      </span>
    </div>
  );
}

/** The workflow's finished runs; the chosen one's final files become the new run's first. */
function EarlierRunPicker({ workflowId, start, onStart }: { workflowId: number; start: WorkspaceStart; onStart: (update: (prev: WorkspaceStart) => WorkspaceStart) => void }) {
  const [runs, setRuns] = useState<Run[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const selectId = useId();
  useEffect(() => {
    let live = true;
    api.listRuns(workflowId).then(
      (list) => live && setRuns(startableRuns(list)),
      (e) => live && setError(errorText(e)),
    );
    return () => {
      live = false;
    };
  }, [workflowId]);
  if (error) return <div className="field-problem error">Could not list the earlier runs: {error}</div>;
  if (!runs) return <p className="muted small">Loading the earlier runs…</p>;
  if (!runs.length) return <p className="muted small">This workflow has no finished run yet.</p>;
  return (
    <div className="mini-field">
      <label className="muted small" htmlFor={selectId}>
        The run whose final files to start from
      </label>
      <select id={selectId} className="input" value={start.runId} onChange={(e) => {
          const runId = e.target.value;
          onStart((prev) => ({ ...prev, runId }));
        }} data-testid="ws-from-run">
        <option value="">Choose a run…</option>
        {runs.map((r) => (
          <option key={r.id} value={r.id}>
            {earlierRunLabel(r)}
          </option>
        ))}
      </select>
    </div>
  );
}

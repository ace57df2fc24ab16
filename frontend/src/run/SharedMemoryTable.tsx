// The run's shared memory as tables, one per namespace (the agent that wrote under it), each key with its value
// and the step that wrote it last. Asked of the server (GET /runs/{id}/shared-memory) when the tab opens and
// again after each write the run's events announce.
import { useEffect, useMemo, useState } from 'react';
import { api, errorText } from '../api/client';
import type { SharedMemoryEntryOut } from '../api/openapi.gen';
import { useEditor } from '../store/context';
import type { ToolLog } from './toolCalls';

const WRITE = 'shared_memory_write';

/** How many shared-memory writes have finished: a change means the table is out of date. */
export function finishedWrites(tools: ToolLog): number {
  let n = 0;
  for (const turn of tools.turns) for (const call of turn.calls) if (call.name === WRITE && (call.state === 'done' || call.state === 'failed')) n++;
  return n;
}

/** Entries grouped by namespace, namespaces and keys in order. */
export function byNamespace(entries: readonly SharedMemoryEntryOut[]): [string, SharedMemoryEntryOut[]][] {
  const groups = new Map<string, SharedMemoryEntryOut[]>();
  for (const e of [...entries].sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name))) {
    const list = groups.get(e.namespace) ?? [];
    list.push(e);
    groups.set(e.namespace, list);
  }
  return [...groups.entries()];
}

export function SharedMemoryTable({ runId, on }: { runId: string; on: boolean }) {
  const tools = useEditor((s) => s.runState.tools);
  const writes = useMemo(() => finishedWrites(tools), [tools]);
  const [entries, setEntries] = useState<SharedMemoryEntryOut[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api.sharedMemory(runId).then(
      (found) => {
        if (!live) return;
        setEntries(found);
        setError(null);
      },
      (e) => live && setError(errorText(e)),
    );
    return () => {
      live = false;
    };
  }, [runId, writes]);
  const groups = useMemo(() => byNamespace(entries ?? []), [entries]);
  if (error) return <p className="field-problem error">Could not load the shared memory: {error}</p>;
  if (entries === null) return <p className="muted small">Loading…</p>;
  if (!groups.length) {
    return <p className="muted small" data-testid="shared-memory-empty">{on ? 'Nothing written yet.' : 'Shared memory is off in this run: its agents have no shared_memory tools.'}</p>;
  }
  return (
    <div data-testid="shared-memory">
      {groups.map(([namespace, rows]) => (
        <section key={namespace} className="memory-namespace" data-testid="memory-namespace" data-namespace={namespace}>
          <h5 className="memory-namespace-title">
            <span className="mono">{namespace}/</span> <span className="muted small">written by agent {namespace}</span>
          </h5>
          <table className="table memory-table">
            <thead>
              <tr>
                <th>Key</th>
                <th>Value</th>
                <th>Written by</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((e) => (
                <tr key={e.key} data-testid="memory-row" data-key={e.key}>
                  <td className="mono">{e.name}</td>
                  <td className="memory-value">{e.value}</td>
                  <td className="mono small">{e.step_id}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </div>
  );
}

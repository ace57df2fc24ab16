// The list of changes in words; picking a step selects its node on the canvas.
import { useEffect, useRef } from 'react';
import type { FolderFileChange } from '../nodes/folder/folderApi';
import { describeStep, describeWorkflow, type DocDiff } from './compareDocs';

/** The sentence with its `quoted` names set as code. */
function Sentence({ text }: { text: string }) {
  return (
    <span className="vc-change-text">
      {text.split('`').map((part, i) => (i % 2 ? <code key={i}>{part}</code> : part))}
    </span>
  );
}

export function ChangeList({
  diff,
  files,
  selected,
  onSelect,
}: {
  diff: DocDiff;
  /** The folder files that differ (null: still loading); a version may differ in nothing else. */
  files: FolderFileChange[] | null;
  selected: string | null;
  onSelect: (key: string) => void;
}) {
  const list = useRef<HTMLUListElement>(null);
  const steps = diff.steps.filter((s) => s.kind !== 'unchanged');
  // A node picked on the canvas scrolls its line into view.
  useEffect(() => {
    if (!selected) return;
    list.current?.querySelector<HTMLElement>(`[data-key="${CSS.escape(selected)}"]`)?.scrollIntoView?.({ block: 'nearest' });
  }, [selected]);
  if (!steps.length && !diff.workflow.length && files && !files.length)
    return <p className="muted small">No differences: these versions hold the same workflow and the same files.</p>;
  return (
    <ul className="vc-change-list" ref={list} data-testid="change-list">
      {diff.workflow.map((f) => (
        <li key={`w:${f.field}`} className={`vc-change vc-change-${f.change}`} data-testid="change-item">
          <Sentence text={describeWorkflow(f)} />
        </li>
      ))}
      {(files ?? []).map((f) => (
        <li key={`f:${f.path}`} className={`vc-change vc-change-${f.change}`} data-testid="change-item" data-file={f.path}>
          <Sentence text={`file \`${f.path}\` ${f.change}`} />
        </li>
      ))}
      {steps.map((s) => (
        <li key={s.key} className={`vc-change vc-change-${s.kind}`}>
          <button
            type="button"
            className={`vc-pick${selected === s.key ? ' selected' : ''}`}
            aria-pressed={selected === s.key}
            data-key={s.key}
            data-kind={s.kind}
            data-testid="change-item"
            onClick={() => onSelect(s.key)}
          >
            <span className={`diff-word diff-word-${s.kind}`}>{s.kind}</span>
            <Sentence text={describeStep(s)} />
          </button>
        </li>
      ))}
    </ul>
  );
}

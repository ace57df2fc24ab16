// The inspector: chooses the panel for what is selected. A step gets its
// kind's panel from the node registry; the workflow, agents, options and
// includes share tabs. Edits go through pure document ops; the server
// validates and its diagnostics show under each field.
import { memo, useRef, useState, useEffect } from 'react';
import { CrashProbe } from '../components/CrashProbe';
import { PanelEdge, PanelRail } from '../components/PanelEdge';
import type { SidePanelState } from '../components/sidePanel';
import { locate } from '../doc/keys';
import { kindOf } from '../graph/mapping';
import { NODE_KINDS } from '../nodes/registry';
import { useEditor, useEditorStore } from '../store/context';
import type { Selection } from '../store/editorStore';
import { FilePanel } from './files/FilePanel';
import { afterFolderSave } from '../nodes/folder/folderSaved';
import { AgentsPanel } from './inspector/AgentsPanel';
import { BreakpointToggle } from './inspector/BreakpointToggle';
import { EdgePanel } from './inspector/EdgePanel';
import { IncludesPanel } from './inspector/IncludesPanel';
import { OptionsPanel } from './inspector/OptionsPanel';
import { useFocusField } from './inspector/useFocusField';
import { WorkflowPanel } from './inspector/WorkflowPanel';

type Tab = 'workflow' | 'agents' | 'options' | 'includes' | 'files';
const TABS: Tab[] = ['workflow', 'agents', 'options', 'includes', 'files'];

/** The tab a selection opens; other selections keep the tab the user chose. */
function tabOf(selection: Selection | null): Tab | null {
  switch (selection?.kind) {
    case 'agent':
      return 'agents';
    case 'options':
    case 'includes':
    case 'workflow':
      return selection.kind;
    case 'file':
      return 'files';
    default:
      return null;
  }
}

/** The workflow's folder; a file saved there is a new version, so the editor's version follows. */
function FilesTab({ show }: { show: string | null }) {
  const store = useEditorStore();
  const workflowId = useEditor((s) => s.workflowId);
  const readOnly = useEditor((s) => s.readOnly);
  return (
    <div className="insp-body">
      <FilePanel workflowId={workflowId} readOnly={readOnly} show={show} onSaved={(version) => afterFolderSave(store, version)} />
    </div>
  );
}

export const Inspector = memo(function Inspector({ panel }: { panel: SidePanelState }) {
  const selection = useEditor((s) => s.selection);
  const readOnly = useEditor((s) => s.readOnly);
  const [tab, setTab] = useState<Tab>('workflow');
  const [followed, setFollowed] = useState<Selection | null>(null);
  if (selection !== followed) {
    setFollowed(selection);
    const opened = tabOf(selection);
    if (opened) setTab(opened);
  }
  const ref = useRef<HTMLDivElement>(null);
  useFocusField(ref);

  // Another node chosen: start at the top of its panel, not at the previous node's scroll position.
  const selectedKey = selection?.kind === 'step' ? selection.key : selection?.kind ?? '';
  useEffect(() => {
    if (ref.current) ref.current.scrollTop = 0;
  }, [selectedKey]);

  if (panel.collapsed) return <PanelRail panel={panel} name="inspector" testId="inspector-rail" />;
  let body;
  // The tab strip stays outside the read-only fieldset: a role that cannot edit still reads every tab.
  let tabs = null;
  if (selection?.kind === 'step') body = <StepPanel key={selection.key} stepKey={selection.key} />;
  else if (selection?.kind === 'edge') body = <EdgePanel selection={selection} />;
  else {
    tabs = (
      <div className="tabs" role="tablist">
        {TABS.map((t) => (
          <button key={t} role="tab" aria-selected={tab === t} className={`tab${tab === t ? ' active' : ''}`} onClick={() => setTab(t)}>
            {t[0].toUpperCase() + t.slice(1)}
          </button>
        ))}
      </div>
    );
    body = (
      <>
        <CrashProbe name={`inspector-${tab}`} />
        {tab === 'workflow' && <WorkflowPanel />}
        {tab === 'options' && <OptionsPanel />}
        {tab === 'includes' && <IncludesPanel />}
      </>
    );
  }
  // The folder's files are edited side by side with their tree: the Files tab widens the panel.
  const wide = tab === 'files' && selection?.kind !== 'step' && selection?.kind !== 'edge';
  return (
    <aside className={`inspector${wide ? ' inspector-wide' : ''}${readOnly ? ' read-only' : ''}`} data-testid="inspector">
      <PanelEdge panel={panel} name="inspector" />
      <div className="inspector-scroll" ref={ref}>
        {tabs}
        {/* Agents and Files hold their own read-only rules: their lists stay browsable (chips, the file tree). */}
        {tabs && tab === 'agents' && <AgentsPanel selected={selection?.kind === 'agent' ? selection.name : null} />}
        {tabs && tab === 'files' && <FilesTab show={selection?.kind === 'file' ? selection.path : null} />}
        <fieldset disabled={readOnly} className="insp-fieldset">
          {body}
        </fieldset>
      </div>
    </aside>
  );
});

/** The selected step's panel, as its kind (from the node registry) draws it. */
function StepPanel({ stepKey }: { stepKey: string }) {
  const doc = useEditor((s) => s.doc);
  const found = locate(doc, stepKey);
  if (!found) return <div className="insp-body muted">This step no longer exists.</div>;
  const kind = kindOf(found.step);
  const { Panel } = NODE_KINDS[kind];
  return (
    <>
      <Panel stepKey={stepKey} found={found} />
      {typeof found.step.id === 'string' && <BreakpointToggle stepId={found.step.id} kind={kind} />}
    </>
  );
}

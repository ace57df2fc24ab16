import { useState, type CSSProperties } from 'react';
import { PanelEdge, PanelRail } from '../components/PanelEdge';
import { useSidePanel } from '../components/sidePanel';
import { useEditor } from '../store/context';
import { DetailsPanel } from './DetailsPanel';
import { EventsPanel } from './EventsPanel';
import { LivePanel } from './LivePanel';
import { MessagesPanel } from './MessagesPanel';
import { MetricsPanel } from './MetricsPanel';
import { RoundsTab } from './rounds/RoundsPanel';
import { ToolsPanel } from './ToolsPanel';
import type { WorkspaceLoad } from './useRunWorkspace';
import { WorkspacePanel } from './WorkspacePanel';

type SideTab = 'live' | 'details' | 'tools' | 'messages' | 'workspace' | 'metrics' | 'rounds' | 'events';
const TABS: SideTab[] = ['live', 'details', 'tools', 'messages', 'workspace', 'metrics', 'rounds', 'events'];

/** The run view's side panel: one tab per panel; choosing a step or an iteration opens Details. */
export function RunSide({ runId, workspace }: { runId: string; workspace: WorkspaceLoad }) {
  const selection = useEditor((s) => s.selection);
  const focus = useEditor((s) => s.iterationFocus);
  const [tab, setTab] = useState<SideTab>(selection?.kind === 'step' || focus ? 'details' : 'live');
  const [followed, setFollowed] = useState({ selection, focus });
  if (selection !== followed.selection || focus !== followed.focus) {
    setFollowed({ selection, focus });
    if (selection?.kind === 'step' || focus) setTab('details');
  }
  const panel = useSidePanel('ld:panel:run-side', 400);
  if (panel.collapsed) return <PanelRail panel={panel} name="run panel" testId="run-side-rail" />;
  return (
    // Files and diffs need room to be read: the Workspace tab widens the panel.
    <aside className={`run-side${tab === 'workspace' ? ' run-side-wide' : ''}`} style={{ '--panel-w': `${panel.width}px` } as CSSProperties} data-testid="run-side">
      <PanelEdge panel={panel} name="run panel" />
      <div className="tabs" role="tablist">
        {TABS.map((t) => (
          <button key={t} role="tab" aria-selected={tab === t} className={`tab${tab === t ? ' active' : ''}`} onClick={() => setTab(t)} data-testid={`run-tab-${t}`}>
            {t[0].toUpperCase() + t.slice(1)}
          </button>
        ))}
      </div>
      <div className="run-side-body">
        {tab === 'live' && <LivePanel />}
        {tab === 'details' && <DetailsPanel />}
        {tab === 'tools' && <ToolsPanel />}
        {tab === 'messages' && <MessagesPanel runId={runId} />}
        {tab === 'workspace' && <WorkspacePanel runId={runId} load={workspace} />}
        {tab === 'metrics' && <MetricsPanel runId={runId} />}
        {tab === 'rounds' && <RoundsTab />}
        {tab === 'events' && <EventsPanel />}
      </div>
    </aside>
  );
}

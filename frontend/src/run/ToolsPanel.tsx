import { useEditor } from '../store/context';
import { ToolCallList } from './ToolCallList';

/** Every tool call of the run, by agent turn, as they happen. */
export function ToolsPanel() {
  const turns = useEditor((s) => s.runState.tools.turns);
  if (!turns.length) return <p className="muted">No agent has called a tool yet. Calls appear here as agents make them.</p>;
  return <ToolCallList turns={turns} title="Tool calls in this run" />;
}

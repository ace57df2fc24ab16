import { useEditorStore } from '../store/context';
import type { WorkflowDoc } from '../doc/types';

/**
 * An edit of the current document through a pure op. Edits with the same
 * `coalesce` key in quick succession (typing in one field) undo together.
 */
export function useApplyDoc(): (fn: (doc: WorkflowDoc) => WorkflowDoc, coalesce?: string) => void {
  const store = useEditorStore();
  return (fn, coalesce) => {
    const s = store.getState();
    s.applyDoc(fn(s.doc), { coalesce });
  };
}

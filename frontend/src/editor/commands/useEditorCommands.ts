// The editor's commands for the palette: buildCommands fed with the editor's
// state and the same functions its toolbar, its node palette and its
// inspector call.
import { useMemo } from 'react';
import { useReactFlow } from '@xyflow/react';
import { READABLE_ZOOM } from '../../canvas/Canvas';
import { addNode, scopeForAdding } from '../../nodes/add';
import { PALETTE, paletteItem } from '../../nodes/registry';
import { useEditor, useEditorStore } from '../../store/context';
import { useFit, useTidy, useToolbarGates } from '../EditorToolbar';
import { buildCommands, type Command } from './commands';
import { pieceActions } from './pieceActions';
import { useViewCentre } from '../selection/useClipboardKeys';

export interface EditorCommandHandlers {
  save(): void;
  exportAs(format: 'yaml' | 'json', copy: boolean): void;
  openRun(): void;
  openImport(): void;
  toggleYaml(): void;
  showYaml: boolean;
  showShortcuts(): void;
  editDenied: string | null;
  runDenied: string | null;
  saving: boolean;
}

export function useEditorCommands(h: EditorCommandHandlers): Command[] {
  const store = useEditorStore();
  const flow = useReactFlow();
  const tidy = useTidy();
  const fit = useFit();
  const gates = useToolbarGates(h.runDenied);
  const doc = useEditor((s) => s.doc);
  const readOnly = useEditor((s) => s.readOnly);
  const canUndo = useEditor((s) => s.past.length > 0);
  const canRedo = useEditor((s) => s.future.length > 0);
  const selected = useEditor((s) => s.selectedKeys);
  const centre = useViewCentre();

  return useMemo(() => {
    const editDenied = h.editDenied ?? (readOnly ? 'Read only: your role cannot change this workflow' : null);
    return buildCommands({
      doc,
      kinds: PALETTE,
      editDenied,
      addNode(kind) {
        const item = paletteItem(kind);
        if (!item) return;
        // As a click on the palette: into the selected loop when it takes one, in a free spot for the canvas's shape.
        const wrap = document.querySelector('.canvas-wrap')?.getBoundingClientRect();
        addNode(store, item, undefined, scopeForAdding(store, item), wrap && wrap.height > 0 ? wrap.width / wrap.height : undefined);
      },
      goToStep(key) {
        store.getState().select({ kind: 'step', key });
        // Centre the step (after the dialog has gone and the selection is drawn).
        setTimeout(() => void flow.fitView({ nodes: [{ id: key }], padding: 0.6, maxZoom: 1, minZoom: READABLE_ZOOM, duration: 200 }), 0);
      },
      openAgent(name) {
        store.getState().select({ kind: 'agent', name });
      },
      run: { run: h.openRun, disabled: gates.runBlocked ? gates.runTitle : null },
      save: { run: h.save, disabled: h.saving ? 'Saving…' : h.editDenied },
      exportYaml: { run: () => h.exportAs('yaml', false), disabled: gates.exportBlocked ? gates.exportTitle : null },
      exportJson: { run: () => h.exportAs('json', false), disabled: gates.exportBlocked ? gates.exportTitle : null },
      copyYaml: { run: () => h.exportAs('yaml', true), disabled: gates.exportBlocked ? gates.exportTitle : null },
      importFile: { run: h.openImport, disabled: h.editDenied },
      toggleYaml: { run: h.toggleYaml, shown: h.showYaml },
      tidy: { run: tidy },
      fit: { run: fit },
      undo: { run: () => store.getState().undo(), disabled: canUndo ? null : 'Nothing to undo' },
      redo: { run: () => store.getState().redo(), disabled: canRedo ? null : 'Nothing to redo' },
      showShortcuts: { run: h.showShortcuts },
      showProblems: { run: showProblems },
      pieces: pieceActions(store, selected, editDenied, centre),
    });
  }, [h, doc, readOnly, store, flow, tidy, fit, gates.runBlocked, gates.runTitle, gates.exportBlocked, gates.exportTitle, canUndo, canRedo, selected, centre]);
}

/** The problems panel into view, its first problem (or the panel) focused for the keyboard. On the next frame:
 * run from the palette, the page is inert until the palette has closed, and its closing gives the focus back to
 * where it was before; the problem takes it after that. */
function showProblems(): void {
  requestAnimationFrame(() => {
    const panel = document.querySelector<HTMLElement>('[data-testid=problems]');
    if (!panel) return;
    panel.scrollIntoView({ block: 'nearest' });
    const first = panel.querySelector<HTMLElement>('[data-testid=problem]');
    if (first) first.focus();
    else {
      panel.tabIndex = -1;
      panel.focus();
    }
  });
}

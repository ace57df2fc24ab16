// The clipboard on the canvas: the browser's copy, cut and paste events (so
// that text from other tabs and programs comes in, and ours goes out, without
// asking for permission) and Ctrl/Cmd+D to duplicate. Text fields and open
// dialogs keep their own clipboard.
import { useCallback, useEffect } from 'react';
import { useReactFlow } from '@xyflow/react';
import type { Position } from '../../doc/types';
import { isShortcut } from '../commands/shortcuts';
import type { EditorStore } from '../../store/editorStore';
import { copyText, duplicateSelection, pasteText, rememberedCopy, removeCopied } from '../../canvas/clipboardActions';
import { selectedStepKeys } from '../../canvas/deleteSelection';

function isEditable(el: EventTarget | null): boolean {
  if (!(el instanceof HTMLElement)) return false;
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName) || !!el.closest('.cm-editor');
}

/** Whether the event belongs to the canvas: not typed into a field, no dialog open, no opened include covering
 * it (and, for a copy, no text selected on the page). */
function forCanvas(store: EditorStore, e: Event, copying = false): boolean {
  if (store.getState().drill.length > 0) return false;
  if (isEditable(e.target) || isEditable(document.activeElement)) return false;
  if (document.querySelector('dialog[open]')) return false;
  return !copying || (window.getSelection()?.toString() ?? '') === '';
}

/** The middle of the visible canvas, in flow coordinates: where a paste lands. */
export function useViewCentre(): () => Position {
  const flow = useReactFlow();
  return useCallback(() => {
    const el = document.querySelector('.canvas .react-flow');
    const r = el?.getBoundingClientRect();
    if (!r || r.width === 0) return { x: 0, y: 0 };
    // A little up and left of the centre, so the pasted steps (drawn from their top-left) sit around it.
    const p = flow.screenToFlowPosition({ x: r.left + r.width / 2 - 120, y: r.top + r.height / 2 - 60 });
    return { x: Math.round(p.x), y: Math.round(p.y) };
  }, [flow]);
}

export function useClipboardKeys(store: EditorStore): void {
  const centre = useViewCentre();
  useEffect(() => {
    const onCopy = (e: ClipboardEvent, cut: boolean) => {
      if (!forCanvas(store, e, true) || selectedStepKeys(store).length === 0) return;
      if (cut && store.getState().readOnly) return;
      const text = copyText(store);
      if (!text) return;
      e.preventDefault();
      e.clipboardData?.setData('text/plain', text);
      if (cut) removeCopied(store);
    };
    const copy = (e: ClipboardEvent) => onCopy(e, false);
    const cut = (e: ClipboardEvent) => onCopy(e, true);
    const paste = (e: ClipboardEvent) => {
      if (!forCanvas(store, e) || store.getState().readOnly) return;
      // No clipboard data at all is a browser that keeps it from pages: the copy made in this tab stands in.
      const text = e.clipboardData ? e.clipboardData.getData('text/plain') : rememberedCopy();
      if (text === null) return;
      e.preventDefault();
      pasteText(store, text, centre());
    };
    const key = (e: KeyboardEvent) => {
      if (!isShortcut('duplicate', e) || !forCanvas(store, e)) return;
      e.preventDefault();
      duplicateSelection(store);
    };
    document.addEventListener('copy', copy);
    document.addEventListener('cut', cut);
    document.addEventListener('paste', paste);
    window.addEventListener('keydown', key);
    return () => {
      document.removeEventListener('copy', copy);
      document.removeEventListener('cut', cut);
      document.removeEventListener('paste', paste);
      window.removeEventListener('keydown', key);
    };
  }, [store, centre]);
}

// The selection bar and the edit notice float over the editor's canvas. The
// canvas module sits below editor/ and cannot draw them, so the toolbar
// (which the editor page renders once) portals them into the canvas's frame.
import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { useEditor } from '../../store/context';
import { EditNoticeBar } from './EditNoticeBar';
import { SelectionBar } from './SelectionBar';

export function CanvasOverlays() {
  const [frame, setFrame] = useState<Element | null>(null);
  const readOnly = useEditor((s) => s.readOnly);
  useEffect(() => {
    // The frame is the editor page's own element, rendered with the toolbar: found once both are in the DOM.
    // eslint-disable-next-line react-hooks/set-state-in-effect -- reads the DOM once after mount
    setFrame(document.querySelector('[data-testid=editor] .canvas-wrap'));
  }, []);
  if (!frame) return null;
  return createPortal(
    <>
      <EditNoticeBar />
      {!readOnly && <SelectionBar />}
    </>,
    frame,
  );
}

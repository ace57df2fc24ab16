// A workflow drawn read-only (a version in a comparison, an included workflow opened from its node): the
// same view settings and backdrop wherever the canvas is only looked at.
import { Background, Controls } from '@xyflow/react';

export const READ_ONLY_FLOW = {
  nodesDraggable: false,
  nodesConnectable: false,
  // Selectable, or React Flow takes pointer events off the nodes (and the buttons in them).
  elementsSelectable: true,
  deleteKeyCode: null,
  selectionKeyCode: null,
  multiSelectionKeyCode: null,
  fitView: true,
  fitViewOptions: { padding: 0.15, maxZoom: 1 },
  minZoom: 0.05,
  maxZoom: 1.75,
  proOptions: { hideAttribution: true },
  defaultEdgeOptions: { type: 'smoothstep' },
} as const;

/** The grid and the zoom controls, without the lock (nothing here can be moved anyway). */
export function ReadOnlyBackdrop() {
  return (
    <>
      <Background gap={20} size={1} color="var(--grid-dot)" />
      <Controls showInteractive={false} />
    </>
  );
}

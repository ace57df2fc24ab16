// What every node kind provides: its palette entries and its inspector panel's props.
import type { Step, WorkflowDoc } from '../doc/types';
import type { Located } from '../doc/keys';

/** The drag-and-drop data type of a palette entry dragged onto the canvas. */
export const PALETTE_MIME = 'application/x-loop-designer-node';

export type PaletteKind = 'step' | 'forEach' | 'repeat' | 'judge' | 'include';

/** One entry of the editor's palette: what it adds and how it looks. */
export interface PaletteItem {
  kind: PaletteKind;
  icon: string;
  label: string;
  hint: string;
  /** Only a plain step goes into a loop: loops cannot nest (v1), and an include runs at top level. */
  inner: boolean;
  /** The new step for `scope` of `doc`, and the document it goes into (a judge loop brings its judge agent). */
  create(doc: WorkflowDoc, scope: string): { doc: WorkflowDoc; step: Step };
}

/** What the inspector hands a node kind's panel: the selected step's key and where it is. */
export interface PanelProps {
  stepKey: string;
  found: Located;
}

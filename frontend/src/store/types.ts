// The shape of the editor store: one interface per slice (its state and its
// actions), composed into EditorState by editorStore.ts.
import type { StoreApi } from 'zustand/vanilla';
import type { RunEvent } from '../api/events.gen';
import type { Diag, Run, ValidateResult } from '../api/types';
import type { Breakpoint } from '../breakpoints/rules';
import type { Layout, WorkflowDoc } from '../doc/types';
import type { RunState } from '../run/reduce';

export type Selection =
  | { kind: 'workflow' }
  | { kind: 'step'; key: string }
  | { kind: 'edge'; id: string; source: string; target: string }
  | { kind: 'agent'; name: string }
  | { kind: 'options' }
  | { kind: 'includes' }
  /** A file of the workflow's folder, shown in the inspector's Files tab. */
  | { kind: 'file'; path: string };

/** One level of an opened include: the step that includes it and the folder file it runs. */
export interface DrillLevel {
  step: string;
  file: string;
}

export interface Snapshot {
  doc: WorkflowDoc;
  layout: Layout;
  source: string;
}

export interface LoadInput {
  workflowId: number | null;
  version: number | null;
  doc: WorkflowDoc;
  source: string;
  layout: Layout | null;
  errors?: Diag[];
  warnings?: Diag[];
  valid?: boolean | null;
  readOnly?: boolean;
  iterationOutputs?: Record<string, string[]>;
}

export interface DocumentState {
  workflowId: number | null;
  savedVersion: number | null;
  doc: WorkflowDoc;
  layout: Layout;
  source: string;
  /** Bumped on every change of the text not made in the YAML view. */
  sourceNonce: number;
  revision: number;
  savedRevision: number;
  /** Positions are saved with the workflow, so moving a node makes it dirty too. */
  layoutRevision: number;
  savedLayoutRevision: number;
  /** The YAML text does not parse to a mapping: the canvas shows the last good document. */
  parseFailed: boolean;
  readOnly: boolean;
}

export interface DocumentActions {
  load(input: LoadInput): void;
  applyDoc(doc: WorkflowDoc, opts?: { coalesce?: string; layout?: Layout; select?: Selection | null; selectKeys?: string[] }): void;
  setSource(text: string): void;
  setLayout(layout: Layout, opts?: { history?: boolean }): void;
  renameKey(oldKey: string, newKey: string): void;
  /** Replaces the whole document (import), undoably. */
  replaceAll(doc: WorkflowDoc, source: string, layout: Layout | null): void;
  markSaved(workflowId: number, version: number, revision: number, layoutRevision: number): void;
}

export interface ValidationState {
  errors: Diag[];
  warnings: Diag[];
  /** For each loop with inner steps (by JSON pointer): the inner steps its iterations' output comes from (the server's rule). */
  iterationOutputs: Record<string, string[]>;
  valid: boolean | null;
  validating: boolean;
  /** Revision the diagnostics belong to. */
  checkedRevision: number;
  syncError: string | null;
  /** No check, render or parse is waiting or under way: the text, the graph and the problems all match the latest edit. */
  synced: boolean;
}

export interface ValidationActions {
  /** Resolves once the text and diagnostics match the latest edit. */
  whenSynced(): Promise<void>;
  revalidate(): void;
}

/** A message about the last clipboard or loop edit (what was renamed, what could not stay valid). */
export interface EditNotice {
  kind: 'info' | 'warning' | 'error';
  text: string;
  /** More lines, one per thing to look at. */
  details?: string[];
}

export interface SelectionState {
  /** What the inspector shows; with several steps selected, the one chosen last. */
  selection: Selection | null;
  /** Every selected step (shift-click, box select, a paste); the step in `selection` is one of them. */
  selectedKeys: string[];
  notice: EditNotice | null;
  focusField: string | null;
  /** YAML line to reveal (from the problems panel). */
  focusLine: number | null;
  focusNonce: number;
  /** Bumped to ask the canvas to fit the view (after an import, a tidy-up ...). */
  fitNonce: number;
  /** Steps the canvas should bring into view (pasted, duplicated), when revealNonce changes. */
  revealKeys: string[];
  revealNonce: number;
  /** Included workflows opened read only over the canvas, outermost first (empty: the canvas shows this workflow). */
  drill: DrillLevel[];
}

export interface SelectionActions {
  select(selection: Selection | null, field?: string | null, line?: number | null): void;
  /** Selects these steps; the inspector shows `primary` (default: the last). */
  selectSteps(keys: readonly string[], primary?: string | null): void;
  /** Adds a step to the selection, or takes it out if it is in. */
  toggleStep(key: string): void;
  notify(notice: EditNotice | null): void;
  requestFit(): void;
  /** Asks the canvas to pan (not zoom) so these steps are in view. */
  reveal(keys: readonly string[]): void;
  /** Shows an included workflow over the canvas, inside the ones already open. */
  openInclude(level: DrillLevel): void;
  /** Goes back to `depth` open includes (0: this workflow). */
  closeIncludes(depth: number): void;
}

export interface HistoryState {
  past: Snapshot[];
  future: Snapshot[];
  lastCoalesce: string | null;
  lastEditAt: number;
}

export interface HistoryActions {
  undo(): void;
  redo(): void;
  /** Puts `snap` under the oldest undo step: the document before this one was made outside the editor. */
  seedUndo(snap: Snapshot): void;
}

/** The run's paused time as this view saw it: since when it is paused (null while not), and the time paused before. */
export interface PauseClock {
  at: number | null;
  total: number;
}

export interface RunSliceState {
  run: Run | null;
  runState: RunState;
  /** The iteration opened from a loop's strip. */
  iterationFocus: { loop: string; iteration: number } | null;
  /** Kept as the shown status goes in and out of paused, so the run's clock stops while it is paused. */
  pauseClock: PauseClock;
}

export interface RunActions {
  setRun(run: Run | null): void;
  addEvents(events: RunEvent[]): void;
  resetRun(): void;
  focusIteration(focus: { loop: string; iteration: number } | null): void;
}

export interface BreakpointsState {
  /** The workflow's saved breakpoints (kept beside it, never in its document); null: not loaded here. */
  breakpoints: Breakpoint[] | null;
  /** A change is on its way to the server (shown already). */
  breakpointsSaving: boolean;
}

export interface BreakpointsActions {
  showBreakpoints(patch: Partial<BreakpointsState>): void;
}

export type DocumentSlice = DocumentState & DocumentActions;
export type ValidationSlice = ValidationState & ValidationActions;
export type SelectionSlice = SelectionState & SelectionActions;
export type HistorySlice = HistoryState & HistoryActions;
export type RunSlice = RunSliceState & RunActions;
export type BreakpointsSlice = BreakpointsState & BreakpointsActions;

export type Actions = DocumentActions & ValidationActions & SelectionActions & HistoryActions & RunActions & BreakpointsActions;
export type EditorState = DocumentSlice & ValidationSlice & SelectionSlice & HistorySlice & RunSlice & BreakpointsSlice;
export type EditorStore = StoreApi<EditorState>;
export type SetEditor = EditorStore['setState'];
export type GetEditor = EditorStore['getState'];

/** The server calls the store makes: validation and rendering (the API client, or a fake in tests). */
export interface SyncApi {
  validate(body: ({ source: string } | { document: WorkflowDoc }) & { workflow_id?: number }, signal?: AbortSignal): Promise<ValidateResult>;
  render(body: { document: WorkflowDoc; format: 'yaml' | 'json'; source?: string }, signal?: AbortSignal): Promise<{ text: string }>;
}

// One store per editor, made of small slices: document, validation,
// selection, history and run. Passed by context (see context.tsx).
//
// Two ways in for edits: structured edits (canvas, inspector) replace the
// document, then the server renders the YAML (keeping comments) and validates;
// text edits (YAML view) are sent to the server, whose parsed document then
// replaces the graph. Responses to anything but the latest edit are dropped.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Diag, ValidateResult } from '../api/types';
import { LineFinder } from '../doc/lines';
import { allKeys } from '../graph/keys';
import { renameInLayout } from '../doc/ops';
import { deepEqual, emptyLayout, isObject, type Layout, type WorkflowDoc } from '../doc/types';
import { emptyRun, reduceEvents, type RunState } from '../run/reduce';
import type { RunEvent, Run } from '../api/types';

export type Selection =
  | { kind: 'workflow' }
  | { kind: 'step'; key: string }
  | { kind: 'edge'; id: string; source: string; target: string }
  | { kind: 'agent'; name: string }
  | { kind: 'options' }
  | { kind: 'includes' };

export interface Snapshot {
  doc: WorkflowDoc;
  layout: Layout;
  source: string;
}

export interface DocumentSlice {
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

export interface ValidationSlice {
  errors: Diag[];
  warnings: Diag[];
  /** For each loop with inner steps (by JSON pointer): the inner steps its iterations' output comes from (the server's rule). */
  iterationOutputs: Record<string, string[]>;
  valid: boolean | null;
  validating: boolean;
  /** Revision the diagnostics belong to. */
  checkedRevision: number;
  syncError: string | null;
}

export interface SelectionSlice {
  selection: Selection | null;
  focusField: string | null;
  /** YAML line to reveal (from the problems panel). */
  focusLine: number | null;
  focusNonce: number;
  /** Bumped to ask the canvas to fit the view (after an import, a tidy-up ...). */
  fitNonce: number;
}

export interface HistorySlice {
  past: Snapshot[];
  future: Snapshot[];
  lastCoalesce: string | null;
  lastEditAt: number;
}

export interface RunSlice {
  run: Run | null;
  runState: RunState;
  /** The iteration opened from a loop's strip. */
  iterationFocus: { loop: string; iteration: number } | null;
}

export interface Actions {
  load(input: { workflowId: number | null; version: number | null; doc: WorkflowDoc; source: string; layout: Layout | null; errors?: Diag[]; warnings?: Diag[]; valid?: boolean | null; readOnly?: boolean; iterationOutputs?: Record<string, string[]> }): void;
  applyDoc(doc: WorkflowDoc, opts?: { coalesce?: string; layout?: Layout; select?: Selection | null }): void;
  setSource(text: string): void;
  setLayout(layout: Layout, opts?: { history?: boolean }): void;
  renameKey(oldKey: string, newKey: string): void;
  undo(): void;
  redo(): void;
  select(selection: Selection | null, field?: string | null, line?: number | null): void;
  /** Replaces the whole document (import), undoably. */
  replaceAll(doc: WorkflowDoc, source: string, layout: Layout | null): void;
  markSaved(workflowId: number, version: number, revision: number, layoutRevision: number): void;
  /** Resolves once the text and diagnostics match the latest edit. */
  whenSynced(): Promise<void>;
  revalidate(): void;
  setRun(run: Run | null): void;
  addEvents(events: RunEvent[]): void;
  resetRun(): void;
  focusIteration(focus: { loop: string; iteration: number } | null): void;
  requestFit(): void;
}

export type EditorState = DocumentSlice & ValidationSlice & SelectionSlice & HistorySlice & RunSlice & Actions;
export type EditorStore = StoreApi<EditorState>;

export interface SyncApi {
  validate(body: { source: string } | { document: WorkflowDoc }, signal?: AbortSignal): Promise<ValidateResult>;
  render(body: { document: WorkflowDoc; format: 'yaml' | 'json'; source?: string }, signal?: AbortSignal): Promise<{ text: string }>;
}

export const DOC_DEBOUNCE_MS = 15;
export const TEXT_DEBOUNCE_MS = 250;
const HISTORY_LIMIT = 200;
const COALESCE_MS = 1200;

export function blankDocument(): WorkflowDoc {
  return {
    name: 'untitled-workflow',
    description: 'Describe what this workflow does.',
    agents: { worker: { description: 'Does the work.' } },
    steps: [{ id: 'start', agent: 'worker', instructions: 'Describe what this step should do.' }],
  };
}

// Parsing a large YAML text to find lines is not free: keep the last one.
let lastFinder: { text: string; finder: LineFinder } | null = null;
function finderFor(text: string): LineFinder {
  if (lastFinder?.text !== text) lastFinder = { text, finder: new LineFinder(text) };
  return lastFinder.finder;
}

/** Diagnostics of a document (not a text) carry no lines of their own. */
function stripLines(diags: Diag[]): Diag[] {
  return diags.map((d) => ({ ...d, line: null, column: null }));
}

/** Adds YAML line numbers to diagnostics that have only a path. */
export function withLines(all: Diag[], text: string): Diag[] {
  // The same finding reported twice (same code, place and message) is shown once.
  const seen = new Set<string>();
  const diags = all.filter((d) => {
    const k = `${d.code}\u0000${d.path}\u0000${d.message}\u0000${d.line ?? ''}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  if (diags.every((d) => d.line != null)) return diags;
  const finder = finderFor(text);
  return diags.map((d) => (d.line != null ? d : { ...d, line: finder.line(d.path), column: d.column ?? 1 }));
}

export function createEditorStore(sync: SyncApi): EditorStore {
  let docTimer: ReturnType<typeof setTimeout> | null = null;
  let textTimer: ReturnType<typeof setTimeout> | null = null;
  let inflight = 0;
  let waiters: (() => void)[] = [];
  let controller: AbortController | null = null;

  const settle = () => {
    if (inflight === 0 && !docTimer && !textTimer) {
      const list = waiters;
      waiters = [];
      list.forEach((w) => w());
    }
  };

  const store = createStore<EditorState>()((set, get) => {
    const track = async (fn: () => Promise<void>) => {
      inflight++;
      try {
        await fn();
      } catch (err) {
        if (!(err instanceof DOMException && err.name === 'AbortError')) {
          set({ syncError: err instanceof Error ? err.message : String(err), validating: false });
        }
      } finally {
        inflight--;
        settle();
      }
    };

    const newController = () => {
      controller?.abort();
      controller = new AbortController();
      return controller.signal;
    };

    /** After a structured edit: validate the document, render the text. */
    const syncFromDoc = () => {
      if (docTimer) clearTimeout(docTimer);
      if (textTimer) {
        clearTimeout(textTimer);
        textTimer = null;
      }
      set({ validating: true });
      docTimer = setTimeout(() => {
        docTimer = null;
        const { doc, revision, source } = get();
        const signal = newController();
        void track(async () => {
          performance.mark('ld:sync-start');
          // The verdict first (the problems panel refreshes as soon as it
          // comes), then the text: one request at a time on the server.
          const checked = await sync.validate({ document: doc }, signal);
          if (get().revision !== revision) return;
          performance.mark('ld:sync-answered');
          set({
            errors: withLines(checked.errors, get().source),
            warnings: withLines(checked.warnings, get().source),
            iterationOutputs: checked.iteration_outputs ?? {},
            valid: checked.valid,
            validating: false,
            checkedRevision: revision,
            parseFailed: false,
            syncError: null,
          });
          const rendered = await sync.render({ document: doc, format: 'yaml', source: source || undefined }, signal);
          if (get().revision !== revision) return;
          const text = rendered.text;
          set({
            source: text,
            sourceNonce: get().sourceNonce + 1,
            // Line numbers follow the new text.
            errors: withLines(stripLines(checked.errors), text),
            warnings: withLines(stripLines(checked.warnings), text),
          });
        });
      }, DOC_DEBOUNCE_MS);
    };

    /** After a text edit: the server parses and validates; its document replaces ours. */
    const syncFromText = () => {
      if (textTimer) clearTimeout(textTimer);
      if (docTimer) {
        clearTimeout(docTimer);
        docTimer = null;
      }
      set({ validating: true });
      textTimer = setTimeout(() => {
        textTimer = null;
        const { source, revision } = get();
        const signal = newController();
        void track(async () => {
          const checked = await sync.validate({ source }, signal);
          if (get().revision !== revision) return;
          const parsed = isObject(checked.document);
          const patch: Partial<EditorState> = {
            errors: withLines(checked.errors, source),
            warnings: withLines(checked.warnings, source),
            iterationOutputs: parsed ? (checked.iteration_outputs ?? {}) : get().iterationOutputs,
            valid: checked.valid,
            validating: false,
            checkedRevision: revision,
            parseFailed: !parsed,
            syncError: null,
          };
          let reshaped = false;
          if (parsed && checked.document && !deepEqual(checked.document, get().doc)) {
            reshaped = allKeys(checked.document).join('\n') !== allKeys(get().doc).join('\n');
            patch.doc = checked.document;
          }
          set(patch);
          // Steps came or went in the text: show them all.
          if (reshaped) get().requestFit();
        });
      }, TEXT_DEBOUNCE_MS);
    };

    const snapshot = (): Snapshot => {
      const { doc, layout, source } = get();
      return { doc, layout, source };
    };

    const pushHistory = (coalesce: string | null) => {
      const now = Date.now();
      const { past, lastCoalesce, lastEditAt } = get();
      if (coalesce && coalesce === lastCoalesce && now - lastEditAt < COALESCE_MS) {
        set({ lastEditAt: now, future: [] });
        return;
      }
      const nextPast = [...past, snapshot()];
      if (nextPast.length > HISTORY_LIMIT) nextPast.shift();
      set({ past: nextPast, future: [], lastCoalesce: coalesce, lastEditAt: now });
    };

    const restore = (snap: Snapshot) => {
      set({
        doc: snap.doc,
        layout: snap.layout,
        source: snap.source,
        sourceNonce: get().sourceNonce + 1,
        revision: get().revision + 1,
        layoutRevision: get().layoutRevision + 1,
        lastCoalesce: null,
      });
      // The text is known; validate it (comments and lines included).
      if (docTimer) clearTimeout(docTimer);
      docTimer = null;
      syncFromText();
    };

    return {
      workflowId: null,
      savedVersion: null,
      doc: blankDocument(),
      layout: emptyLayout(),
      source: '',
      sourceNonce: 0,
      revision: 0,
      savedRevision: 0,
      layoutRevision: 0,
      savedLayoutRevision: 0,
      parseFailed: false,
      readOnly: false,
      errors: [],
      iterationOutputs: {},
      warnings: [],
      valid: null,
      validating: false,
      checkedRevision: -1,
      syncError: null,
      selection: null,
      focusField: null,
      focusLine: null,
      focusNonce: 0,
      fitNonce: 0,
      past: [],
      future: [],
      lastCoalesce: null,
      lastEditAt: 0,
      run: null,
      runState: emptyRun(),
      iterationFocus: null,

      load(input) {
        set({
          workflowId: input.workflowId,
          savedVersion: input.version,
          doc: input.doc,
          layout: input.layout ?? emptyLayout(),
          source: input.source,
          sourceNonce: get().sourceNonce + 1,
          revision: 0,
          savedRevision: 0,
          layoutRevision: 0,
          savedLayoutRevision: 0,
          parseFailed: false,
          readOnly: input.readOnly ?? false,
          errors: input.errors ?? [],
          warnings: input.warnings ?? [],
          iterationOutputs: input.iterationOutputs ?? {},
          valid: input.valid ?? null,
          checkedRevision: input.errors ? 0 : -1,
          past: [],
          future: [],
          selection: null,
        });
        if (!input.errors) {
          if (input.source) syncFromText();
          else syncFromDoc();
        } else if (input.source) {
          set({ errors: withLines(input.errors, input.source), warnings: withLines(input.warnings ?? [], input.source) });
        } else {
          // Saved as a document (through the API): the server renders its text.
          syncFromDoc();
        }
      },

      applyDoc(doc, opts = {}) {
        if (get().readOnly) return;
        pushHistory(opts.coalesce ?? null);
        const patch: Partial<EditorState> = { doc, revision: get().revision + 1 };
        if (opts.layout) {
          patch.layout = opts.layout;
          patch.layoutRevision = get().layoutRevision + 1;
        }
        if (opts.select !== undefined) patch.selection = opts.select;
        set(patch);
        syncFromDoc();
      },

      setSource(text) {
        if (get().readOnly || text === get().source) return;
        pushHistory('yaml');
        set({ source: text, revision: get().revision + 1 });
        syncFromText();
      },

      setLayout(layout, opts = {}) {
        if (opts.history) pushHistory(null);
        set({ layout, layoutRevision: get().layoutRevision + (opts.history ? 1 : 0) });
      },

      renameKey(oldKey, newKey) {
        set({ layout: renameInLayout(get().layout, oldKey, newKey) });
        const sel = get().selection;
        if (sel?.kind === 'step' && (sel.key === oldKey || sel.key.startsWith(oldKey + '/'))) {
          set({ selection: { kind: 'step', key: newKey + sel.key.slice(oldKey.length) } });
        }
      },

      undo() {
        const { past, future } = get();
        const prev = past[past.length - 1];
        if (!prev || get().readOnly) return;
        set({ past: past.slice(0, -1), future: [snapshot(), ...future] });
        restore(prev);
      },

      redo() {
        const { past, future } = get();
        const next = future[0];
        if (!next || get().readOnly) return;
        set({ past: [...past, snapshot()], future: future.slice(1) });
        restore(next);
      },

      select(selection, field = null, line = null) {
        // Choosing a node (or the canvas) replaces a chosen loop iteration in the run view.
        set({ selection, focusField: field, focusLine: line, focusNonce: get().focusNonce + 1, iterationFocus: null });
      },

      replaceAll(doc, source, layout) {
        if (get().readOnly) return;
        pushHistory(null);
        set({
          doc,
          source,
          sourceNonce: get().sourceNonce + 1,
          layout: layout ?? emptyLayout(),
          revision: get().revision + 1,
          layoutRevision: get().layoutRevision + 1,
          selection: null,
          lastCoalesce: null,
        });
        syncFromText();
      },

      markSaved(workflowId, version, revision, layoutRevision) {
        set({ workflowId, savedVersion: version, savedRevision: revision, savedLayoutRevision: layoutRevision });
      },

      whenSynced() {
        return new Promise<void>((resolve) => {
          waiters.push(resolve);
          settle();
        });
      },

      revalidate() {
        if (get().source) syncFromText();
        else syncFromDoc();
      },

      setRun(run) {
        set({ run });
      },

      addEvents(events) {
        set({ runState: reduceEvents(get().runState, events) });
      },

      resetRun() {
        set({ run: null, runState: emptyRun(), iterationFocus: null });
      },

      focusIteration(focus) {
        set({ iterationFocus: focus });
      },

      requestFit() {
        set({ fitNonce: get().fitNonce + 1 });
      },
    };
  });
  return store;
}

export function isDirty(
  s: Pick<EditorState, 'revision' | 'savedRevision' | 'layoutRevision' | 'savedLayoutRevision' | 'workflowId'>,
): boolean {
  return s.revision !== s.savedRevision || s.layoutRevision !== s.savedLayoutRevision || s.workflowId === null;
}

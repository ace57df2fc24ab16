// Validation and sync: the server is the one judge of the document, and the
// one writer of its YAML text.
//
// Two ways in for edits: structured edits (canvas, inspector) replace the
// document, then the server validates it and renders the YAML (keeping
// comments); text edits (YAML view) are sent to the server, whose parsed
// document then replaces the graph. Answers to anything but the latest edit
// are dropped, and a newer edit aborts the requests of the older one.
import { allKeys } from '../doc/keys';
import { deepEqual, isObject } from '../doc/types';
import { stripLines, withLines } from './diagnostics';
import type { EditorState, GetEditor, SetEditor, SyncApi, ValidationSlice } from './types';

export const DOC_DEBOUNCE_MS = 15;
export const TEXT_DEBOUNCE_MS = 250;

/** What the other slices ask of sync: check (and render or parse) after an edit. */
export interface SyncEngine {
  afterDocEdit(): void;
  afterTextEdit(): void;
  whenSynced(): Promise<void>;
  /** Another workflow (or version) was loaded: answers for what was there before must not land on it. */
  forget(): void;
}

export function createSyncEngine(sync: SyncApi, set: SetEditor, get: GetEditor): SyncEngine {
  let docTimer: ReturnType<typeof setTimeout> | null = null;
  let textTimer: ReturnType<typeof setTimeout> | null = null;
  let inflight = 0;
  let waiters: (() => void)[] = [];
  let controller: AbortController | null = null;
  // Revisions restart at 0 on load, so an answer for the old document could
  // match the new one's revision: the epoch tells them apart.
  let epoch = 0;

  const busy = () => {
    if (get().synced) set({ synced: false });
  };

  const settle = () => {
    if (inflight === 0 && !docTimer && !textTimer) {
      if (!get().synced) set({ synced: true });
      const list = waiters;
      waiters = [];
      list.forEach((w) => w());
    }
  };

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
  /** A saved workflow's includes, `@` files and context files are checked in its folder on the server. */
  const inFolder = (): { workflow_id?: number } => {
    const id = get().workflowId;
    return id === null ? {} : { workflow_id: id };
  };

  const afterDocEdit = () => {
    if (docTimer) clearTimeout(docTimer);
    if (textTimer) {
      clearTimeout(textTimer);
      textTimer = null;
    }
    set({ validating: true });
    busy();
    docTimer = setTimeout(() => {
      docTimer = null;
      const { doc, revision, source } = get();
      const signal = newController();
      const mine = epoch;
      const stale = () => get().revision !== revision || epoch !== mine;
      void track(async () => {
        performance.mark('ld:sync-start');
        // The verdict first (the problems panel refreshes as soon as it
        // comes), then the text: one request at a time on the server.
        const checked = await sync.validate({ document: doc, ...inFolder() }, signal);
        if (stale()) return;
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
        if (stale()) return;
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
  const afterTextEdit = () => {
    if (textTimer) clearTimeout(textTimer);
    if (docTimer) {
      clearTimeout(docTimer);
      docTimer = null;
    }
    set({ validating: true });
    busy();
    textTimer = setTimeout(() => {
      textTimer = null;
      const { source, revision } = get();
      const signal = newController();
      const mine = epoch;
      const stale = () => get().revision !== revision || epoch !== mine;
      void track(async () => {
        const checked = await sync.validate({ source, ...inFolder() }, signal);
        if (stale()) return;
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

  const forget = () => {
    epoch++;
    controller?.abort();
    controller = null;
    if (docTimer) clearTimeout(docTimer);
    if (textTimer) clearTimeout(textTimer);
    docTimer = textTimer = null;
    settle();
  };

  const whenSynced = () =>
    new Promise<void>((resolve) => {
      waiters.push(resolve);
      settle();
    });

  return { afterDocEdit, afterTextEdit, whenSynced, forget };
}

export function createValidationSlice(get: GetEditor, sync: SyncEngine): ValidationSlice {
  return {
    errors: [],
    warnings: [],
    iterationOutputs: {},
    valid: null,
    validating: false,
    checkedRevision: -1,
    syncError: null,
    synced: true,

    whenSynced: sync.whenSynced,

    revalidate() {
      if (get().source) sync.afterTextEdit();
      else sync.afterDocEdit();
    },
  };
}

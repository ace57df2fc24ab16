// Copy, cut, paste, duplicate, wrap and unwrap as the editor does them: the
// document edits of doc/clipboard.ts and doc/wrap.ts with their positions,
// each one undo step, the result selected and what needs saying noticed.
import { makeSnippet, parseSnippet, pasteScope, pasteSnippet, snippetText, type Snippet } from '../doc/clipboard';
import { removeSteps } from '../doc/ops';
import type { Position } from '../doc/types';
import { unwrapLoop, wrapInLoop, WRAP_LABELS, type WrapKind } from '../doc/wrap';
import type { EditNotice, EditorStore } from '../store/editorStore';
import { selectedStepKeys } from './deleteSelection';
import { clearOfOthers, placePasted, placeUnwrapped, placeWrapped, PASTE_OFFSET } from './pastePlacement';

/** The last copy, for when the browser refuses the system clipboard (no permission, no secure context). */
let memory: string | null = null;

export function rememberedCopy(): string | null {
  return memory;
}

function notice(kind: EditNotice['kind'], text: string, details: string[] = []): EditNotice {
  return details.length ? { kind, text, details } : { kind, text };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The clipboard text for the selected steps, or null with nothing selected. Kept in memory as well. */
export function copyText(store: EditorStore): string | null {
  const keys = selectedStepKeys(store);
  if (keys.length === 0) return null;
  const { doc, layout } = store.getState();
  const text = snippetText(makeSnippet(doc, keys, layout.positions));
  memory = text;
  return text;
}

/** Writes to the system clipboard when the browser lets us; the in-memory copy stays either way. */
export async function writeClipboard(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** Copy from a button or the command palette (a key press goes through the copy event instead). */
export async function copySelection(store: EditorStore): Promise<void> {
  const n = selectedStepKeys(store).length;
  const text = copyText(store);
  if (!text) {
    store.getState().notify(notice('info', 'Select the steps to copy first.'));
    return;
  }
  const system = await writeClipboard(text);
  store.getState().notify(system ? null : notice('info', `Copied ${plural(n, 'step')} for pasting in this tab: the browser did not let the editor use the system clipboard.`));
}

/** Removes the selected steps after they were copied: one undo step. */
export function removeCopied(store: EditorStore): void {
  const keys = selectedStepKeys(store);
  if (keys.length === 0 || store.getState().readOnly) return;
  store.getState().applyDoc(removeSteps(store.getState().doc, keys), { select: null });
}

export async function cutSelection(store: EditorStore): Promise<void> {
  if (store.getState().readOnly) return;
  await copySelection(store);
  if (memory) removeCopied(store);
}

/** Pastes clipboard text at `origin` (a point of the canvas), into the selected loop if there is one. */
export function pasteText(store: EditorStore, text: string, origin: Position): boolean {
  const state = store.getState();
  if (state.readOnly) return false;
  const parsed = parseSnippet(text);
  if ('error' in parsed) {
    state.notify(notice('error', parsed.error));
    return false;
  }
  pasteSnippetAt(store, parsed.snippet, origin);
  return true;
}

function pasteSnippetAt(store: EditorStore, snippet: Snippet, origin: Position): void {
  const { doc, layout, selection } = store.getState();
  const scope = pasteScope(doc, selection?.kind === 'step' ? selection.key : null);
  const result = pasteSnippet(doc, snippet, scope);
  // Inside a loop, positions are the loop's: start below its header rather than at the canvas's centre.
  const at = result.scope ? { x: 24, y: 128 } : origin;
  const nextLayout = clearOfOthers(result.doc, placePasted(layout, result.keyMap, snippet.positions, snippet.steps, at), result.keys);
  store.getState().applyDoc(result.doc, {
    layout: nextLayout,
    select: { kind: 'step', key: result.keys[result.keys.length - 1] },
    selectKeys: result.keys,
  });
  store.getState().reveal(result.keys);
  const n = result.keys.length;
  store.getState().notify(result.notices.length ? notice('warning', `Pasted ${plural(n, 'step')}. Check:`, result.notices) : null);
}

/** Paste from the command palette or a button: the system clipboard, else the copy kept in this tab. */
export async function pasteFromClipboard(store: EditorStore, origin: Position): Promise<void> {
  let text: string | null;
  try {
    text = await navigator.clipboard.readText();
  } catch {
    text = memory;
  }
  if (text === null) {
    store.getState().notify(notice('error', 'The browser did not let the editor read the clipboard: press Ctrl+V (Cmd+V) on the canvas instead.'));
    return;
  }
  pasteText(store, text, origin);
}

/** A copy of the selected steps beside them, without touching the clipboard. */
export function duplicateSelection(store: EditorStore): void {
  const keys = selectedStepKeys(store);
  const { doc, layout, readOnly } = store.getState();
  if (readOnly) return;
  if (keys.length === 0) {
    store.getState().notify(notice('info', 'Select the steps to duplicate first.'));
    return;
  }
  const snippet = makeSnippet(doc, keys, layout.positions);
  const known = keys.map((k) => layout.positions[k]).filter((p): p is Position => !!p);
  const origin = known.length
    ? { x: Math.min(...known.map((p) => p.x)) + PASTE_OFFSET, y: Math.min(...known.map((p) => p.y)) + PASTE_OFFSET }
    : { x: 0, y: 0 };
  // A duplicate lands in the scope of its originals, not in the selected loop.
  const scopeOf = keys[0].includes('/') ? keys[0].slice(0, keys[0].lastIndexOf('/')) : '';
  const result = pasteSnippet(doc, snippet, scopeOf);
  const nextLayout = clearOfOthers(result.doc, placePasted(layout, result.keyMap, snippet.positions, snippet.steps, origin), result.keys);
  store.getState().applyDoc(result.doc, {
    layout: nextLayout,
    select: { kind: 'step', key: result.keys[result.keys.length - 1] },
    selectKeys: result.keys,
  });
  store.getState().reveal(result.keys);
  store.getState().notify(result.notices.length ? notice('warning', `Duplicated ${plural(result.keys.length, 'step')}. Check:`, result.notices) : null);
}

export function wrapSelection(store: EditorStore, kind: WrapKind): void {
  const { doc, layout, readOnly } = store.getState();
  if (readOnly) return;
  const result = wrapInLoop(doc, selectedStepKeys(store), kind);
  if ('error' in result) {
    store.getState().notify(notice('error', `Cannot wrap in a ${WRAP_LABELS[kind]}: ${result.error}`));
    return;
  }
  store.getState().applyDoc(result.doc, {
    layout: placeWrapped(layout, result.keyMap, result.loopKey),
    select: { kind: 'step', key: result.loopKey },
  });
  store.getState().reveal([result.loopKey]);
  store.getState().notify(result.notices.length ? notice('warning', `Wrapped in the ${WRAP_LABELS[kind]} "${result.loopKey}". Check:`, result.notices) : null);
}

/** The loop to unwrap: the selected step if it is one, else the loop the selected inner step is in. */
export function loopToUnwrap(store: EditorStore): string | null {
  const { selection } = store.getState();
  if (selection?.kind !== 'step') return null;
  const { doc } = store.getState();
  const top = selection.key.split('/')[0];
  const step = Array.isArray(doc.steps) ? doc.steps.find((s) => s && s.id === top) : undefined;
  return step && typeof step.loop === 'object' && step.loop !== null ? top : null;
}

export function unwrapSelection(store: EditorStore): void {
  const { doc, layout, readOnly } = store.getState();
  if (readOnly) return;
  const key = loopToUnwrap(store);
  if (!key) {
    store.getState().notify(notice('error', 'Cannot unwrap: select a loop first.'));
    return;
  }
  const result = unwrapLoop(doc, key);
  if ('error' in result) {
    store.getState().notify(notice('error', `Cannot unwrap: ${result.error}`));
    return;
  }
  store.getState().applyDoc(result.doc, {
    layout: placeUnwrapped(layout, result.keyMap, key),
    select: { kind: 'step', key: result.keys[result.keys.length - 1] },
    selectKeys: result.keys,
  });
  store.getState().reveal(result.keys);
  store.getState().notify(result.notices.length ? notice('warning', `Unwrapped "${key}". Check:`, result.notices) : null);
}

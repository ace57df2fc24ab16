// An edit that redraws the inspector (a rename re-keys the panel, a new kind
// swaps it) would drop the keyboard's focus on the page body. These find the
// same place in the redrawn panel.

const FOCUSABLE = 'input, select, textarea, button, a[href], [tabindex]:not([tabindex="-1"]), [contenteditable="true"]';

function focusables(root: Element): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !(el as HTMLInputElement).disabled);
}

/** Where `el` is in `root`'s tab order (-1 when it is not in `root`). */
export function focusPlace(root: Element | null, el: Element | null): number {
  if (!root || !el) return -1;
  return focusables(root).indexOf(el as HTMLElement);
}

/**
 * After the next frame, when focus has fallen to the page body (and only
 * then: a click elsewhere keeps its focus), focuses the element at `place` in
 * the tab order of `rootSelector`'s element, else the one `fallback` selects.
 */
export function restoreFocus(rootSelector: string, place: number, fallback: string): void {
  requestAnimationFrame(() => {
    const active = document.activeElement;
    if (active && active !== document.body) return;
    const root = document.querySelector(rootSelector);
    if (!root) return;
    const target = (place >= 0 ? focusables(root)[place] : undefined) ?? root.querySelector<HTMLElement>(fallback);
    target?.focus();
  });
}

// Every dialog of the app sits in a native <dialog> opened with showModal(): the browser moves focus
// into it, keeps Tab inside (the page behind is inert) and turns Escape into a 'cancel' event.
import { useEffect, useRef, type ReactNode } from 'react';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"]), [contenteditable="true"]';

function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.hidden && el.offsetParent !== null);
}

export function Modal({ onClose, label, children }: { onClose: () => void; label?: string; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    // Focus what the dialog marks as its first field, else its first control (showModal's own choice).
    const first = dialog.querySelector<HTMLElement>('[data-autofocus]');
    first?.focus();
    return () => {
      if (dialog.open) dialog.close();
      before?.focus?.();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      className="modal-layer"
      aria-label={label}
      onCancel={(e) => {
        e.preventDefault(); // React state decides whether the dialog goes away
        onClose();
      }}
      onKeyDown={(e) => {
        // The page behind is inert, but the browser would still let Tab leave for its own toolbar: wrap instead.
        if (e.key !== 'Tab' || !ref.current) return;
        const items = focusables(ref.current);
        if (items.length === 0) return;
        const first = items[0];
        const last = items[items.length - 1];
        if (e.shiftKey && document.activeElement === first) {
          e.preventDefault();
          last.focus();
        } else if (!e.shiftKey && document.activeElement === last) {
          e.preventDefault();
          first.focus();
        }
      }}
      onMouseDown={(e) => {
        if (e.target === ref.current) onClose(); // a click beside the box, on the dimmed page
      }}
    >
      {children}
    </dialog>
  );
}

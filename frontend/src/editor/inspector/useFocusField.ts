import { useEffect, type RefObject } from 'react';
import { useEditor } from '../../store/context';

/** Focus and reveal a field when the problems panel asks for it. */
export function useFocusField(container: RefObject<HTMLDivElement | null>): void {
  const field = useEditor((s) => s.focusField);
  const nonce = useEditor((s) => s.focusNonce);
  useEffect(() => {
    if (!field || !container.current) return;
    const parts = field.split('.');
    // Try the most precise field first: loop.until, then loop.
    for (let n = parts.length; n > 0; n--) {
      const f = parts.slice(0, n).join('.');
      const el = container.current.querySelector<HTMLElement>(`[data-field="${CSS.escape(f)}"]`);
      if (el) {
        el.scrollIntoView({ block: 'center' });
        const input = el.querySelector<HTMLElement>('input, textarea, select, .cm-content');
        input?.focus({ preventScroll: true });
        el.classList.add('flash');
        setTimeout(() => el.classList.remove('flash'), 900);
        return;
      }
    }
  }, [field, nonce, container]);
}

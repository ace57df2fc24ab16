// The one line of news over the editor: what saving, exporting or importing a dropped file came to.
import { useState } from 'react';

export interface Notice {
  kind: 'error' | 'info';
  text: string;
}

export function useNotice() {
  const [notice, setNotice] = useState<Notice | null>(null);
  /** `say` is stable: it may be a dependency of callbacks and effects. */
  return { notice, say: setNotice, clear: () => setNotice(null) };
}

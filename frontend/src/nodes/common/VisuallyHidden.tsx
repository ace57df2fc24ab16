import type { CSSProperties, ReactNode } from 'react';

// Inline, so that it holds whatever the style sheet calls its own helper class.
const HIDDEN: CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: 'hidden',
  clip: 'rect(0, 0, 0, 0)',
  whiteSpace: 'nowrap',
  border: 0,
};

/** Text a screen reader reads and the eye does not see (what a glyph or a colour says). */
export function VisuallyHidden({ children }: { children: ReactNode }) {
  return <span style={HIDDEN}>{children}</span>;
}

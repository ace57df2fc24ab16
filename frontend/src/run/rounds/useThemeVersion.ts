import { useEffect, useState } from 'react';

/**
 * A number that changes when the page's theme may have: the root element's class or data-theme
 * (theme/theme.ts sets it), or the system's colour scheme. Canvas colours are read from CSS variables
 * when drawn, so a chart is made again when this changes.
 */
export function useThemeVersion(): number {
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const bump = () => setVersion((v) => v + 1);
    const observer = new MutationObserver(bump);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class', 'data-theme'] });
    const scheme = window.matchMedia?.('(prefers-color-scheme: dark)');
    scheme?.addEventListener('change', bump);
    return () => {
      observer.disconnect();
      scheme?.removeEventListener('change', bump);
    };
  }, []);
  return version;
}

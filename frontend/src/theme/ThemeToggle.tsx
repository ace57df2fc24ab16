import { useEffect, useId, useState } from 'react';
import { applyChoice, browserStorage, parseChoice, readChoice, storeChoice, THEME_CHOICES, THEME_KEY, type ThemeChoice } from './theme';

const LABELS: Record<ThemeChoice, string> = { system: 'System', light: 'Light', dark: 'Dark' };

/** The top bar's theme choice: the system's scheme, or light or dark whatever it says; kept for the next visit. */
export function ThemeToggle() {
  const id = useId();
  const [choice, setChoice] = useState<ThemeChoice>(() => readChoice(browserStorage()));

  // Another tab's choice (the storage event fires in the other tabs only) shows here too.
  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key !== THEME_KEY && e.key !== null) return;
      const next = readChoice(browserStorage());
      applyChoice(document.documentElement, next);
      setChoice(next);
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  const choose = (next: ThemeChoice) => {
    storeChoice(browserStorage(), next);
    applyChoice(document.documentElement, next);
    setChoice(next);
  };

  return (
    <span className="theme-toggle">
      <label htmlFor={id}>Theme</label>
      <select id={id} className="theme-select" value={choice} onChange={(e) => choose(parseChoice(e.target.value))} data-testid="theme-choice">
        {THEME_CHOICES.map((c) => (
          <option key={c} value={c}>
            {LABELS[c]}
          </option>
        ))}
      </select>
    </span>
  );
}

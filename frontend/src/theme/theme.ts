// The colour theme: the user's choice (system, light or dark) kept in localStorage and shown as
// <html data-theme>. "system" sets no attribute, so styles.css follows prefers-color-scheme; light or dark
// force their palette. accounts/static/accounts/theme.js reads the same key for the server-rendered pages.

export type ThemeChoice = 'system' | 'light' | 'dark';
export const THEME_CHOICES: readonly ThemeChoice[] = ['system', 'light', 'dark'];
export const THEME_KEY = 'ld:theme';

type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** A stored value as a choice: anything unknown (or nothing) is "system". */
export function parseChoice(raw: string | null | undefined): ThemeChoice {
  return raw === 'light' || raw === 'dark' ? raw : 'system';
}

/** The palette a choice shows, given whether the system prefers dark. */
export function resolveTheme(choice: ThemeChoice, systemDark: boolean): 'light' | 'dark' {
  if (choice === 'system') return systemDark ? 'dark' : 'light';
  return choice;
}

/** The data-theme attribute for a choice: none for "system", so the media query decides. */
export function themeAttribute(choice: ThemeChoice): 'light' | 'dark' | null {
  return choice === 'system' ? null : choice;
}

// Storage can be missing or refuse (a private window, a full quota, a blocked cookie setting): the theme is a
// preference, so it then falls back to the system's without an error.
export function readChoice(storage: Store | null | undefined): ThemeChoice {
  try {
    return parseChoice(storage?.getItem(THEME_KEY));
  } catch {
    return 'system';
  }
}

export function storeChoice(storage: Store | null | undefined, choice: ThemeChoice): void {
  try {
    if (choice === 'system') storage?.removeItem(THEME_KEY);
    else storage?.setItem(THEME_KEY, choice);
  } catch {
    // not kept: this page still shows it
  }
}

/** Shows a choice on the document root. */
export function applyChoice(root: { dataset: DOMStringMap }, choice: ThemeChoice): void {
  const attr = themeAttribute(choice);
  if (attr) root.dataset.theme = attr;
  else delete root.dataset.theme;
}

/** The browser's localStorage, or null where reaching it throws. */
export function browserStorage(): Store | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

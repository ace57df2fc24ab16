// The colour theme: the user's choice (system, light or dark) kept in localStorage and shown as
// <html data-theme>, always the palette shown: light or dark as chosen, or for "system" the scheme the system
// prefers now. styles.css holds one dark palette, under [data-theme='dark']. accounts/static/accounts/theme.js
// reads the same key and sets the attribute before any page paints (this app's index.html loads it too), and
// follows the system's changes while the choice is "system".

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

/** Whether the system prefers dark now (false where it cannot say). */
export function systemPrefersDark(): boolean {
  return typeof window !== 'undefined' && !!window.matchMedia?.('(prefers-color-scheme: dark)').matches;
}

/** Shows a choice on the document root: the palette it resolves to. */
export function applyChoice(root: { dataset: DOMStringMap }, choice: ThemeChoice, systemDark = systemPrefersDark()): void {
  root.dataset.theme = resolveTheme(choice, systemDark);
}

/** The browser's localStorage, or null where reaching it throws. */
export function browserStorage(): Store | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { applyChoice, parseChoice, readChoice, resolveTheme, storeChoice, THEME_KEY } from './theme';

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  };
}

const refusing = {
  getItem: () => {
    throw new Error('SecurityError');
  },
  setItem: () => {
    throw new Error('QuotaExceededError');
  },
  removeItem: () => {
    throw new Error('SecurityError');
  },
};

describe('the theme choice', () => {
  it('reads light and dark as chosen and anything else as the system', () => {
    expect(parseChoice('light')).toBe('light');
    expect(parseChoice('dark')).toBe('dark');
    expect(parseChoice('system')).toBe('system');
    expect(parseChoice('Dark')).toBe('system');
    expect(parseChoice('')).toBe('system');
    expect(parseChoice(null)).toBe('system');
    expect(parseChoice(undefined)).toBe('system');
  });

  it('follows the system only when the user chose nothing', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');
  });

  it('sets data-theme to the palette shown, the system\'s scheme for "system"', () => {
    const root = { dataset: {} as DOMStringMap };
    applyChoice(root, 'dark', false);
    expect(root.dataset.theme).toBe('dark');
    applyChoice(root, 'light', true);
    expect(root.dataset.theme).toBe('light');
    applyChoice(root, 'system', true);
    expect(root.dataset.theme).toBe('dark');
    applyChoice(root, 'system', false);
    expect(root.dataset.theme).toBe('light');
  });

  it('keeps a choice in storage and forgets it when the system is chosen again', () => {
    const storage = memoryStorage();
    expect(readChoice(storage)).toBe('system');
    storeChoice(storage, 'dark');
    expect(storage.data.get(THEME_KEY)).toBe('dark');
    expect(readChoice(storage)).toBe('dark');
    storeChoice(storage, 'system');
    expect(storage.data.has(THEME_KEY)).toBe(false);
    expect(readChoice(memoryStorage({ [THEME_KEY]: 'purple' }))).toBe('system');
  });

  it('falls back to the system when storage is missing or refuses', () => {
    expect(readChoice(null)).toBe('system');
    expect(readChoice(refusing)).toBe('system');
    expect(() => storeChoice(refusing, 'dark')).not.toThrow();
    expect(() => storeChoice(undefined, 'light')).not.toThrow();
  });
});

describe('the dark palette in styles.css', () => {
  const css = readFileSync(new URL('../styles.css', import.meta.url), 'utf8');
  const block = (re: RegExp) => {
    const m = re.exec(css);
    if (!m) throw new Error(`no block matching ${re} in styles.css`);
    return m[1]
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
  };
  const light = block(/^:root \{\n([\s\S]*?)\n\}/m);
  const dark = block(/^:root\[data-theme='dark'\] \{\n([\s\S]*?)\n\}/m);
  const names = (lines: string[]) => lines.filter((l) => l.startsWith('--')).map((l) => l.split(':')[0]);

  it('is written once, under data-theme, which theme.js sets for the system\'s scheme too', () => {
    expect(css.match(/data-theme='dark'/g)).toHaveLength(1);
    expect(css).not.toMatch(/prefers-color-scheme/);
  });

  it('gives every colour of the light palette a dark value', () => {
    const colours = light.filter((l) => l.startsWith('--') && /#|rgba?\(/.test(l) && !l.startsWith('--shadow'));
    const darkNames = new Set(names(dark));
    expect(colours.length).toBeGreaterThan(30);
    expect(names(colours).filter((n) => !darkNames.has(n))).toEqual([]);
  });
});

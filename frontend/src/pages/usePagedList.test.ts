import { describe, expect, it } from 'vitest';
import { appendPage, hasMore } from './usePagedList';

describe('pages of a list', () => {
  it('appends a page, leaving out a row already shown', () => {
    expect(appendPage([{ id: 1 }, { id: 2 }], [{ id: 2 }, { id: 3 }])).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(appendPage([], [{ id: 'a' }])).toEqual([{ id: 'a' }]);
  });

  it('knows there is more from the cursor, or else from the total', () => {
    expect(hasMore({ items: [1, 2], total: 10, next: 'c' }, 'cursor')).toBe(true);
    expect(hasMore({ items: [1, 2], total: 10, next: null }, 'cursor')).toBe(false);
    expect(hasMore({ items: [1, 2], total: 3, next: null }, 'offset')).toBe(true);
    expect(hasMore({ items: [1, 2, 3], total: 3, next: null }, 'offset')).toBe(false);
    expect(hasMore({ items: [1], total: null, next: null }, 'offset')).toBe(false);
  });
});

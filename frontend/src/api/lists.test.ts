import { describe, expect, it } from 'vitest';
import { pageOf, runListParams, workflowListParams } from './lists';

describe('the list queries', () => {
  it('sends only what is set, encoded', () => {
    expect(workflowListParams({})).toBe('');
    expect(workflowListParams({ workspace: 4, q: ' a&b ', valid: false, updatedAfter: '2026-11-23T00:00:00.000Z', limit: 50, offset: 0 })).toBe(
      '?workspace=4&q=a%26b&valid=false&updated_after=2026-11-23T00%3A00%3A00.000Z&limit=50',
    );
    expect(workflowListParams({ workspace: null, q: '  ', offset: 100 })).toBe('?offset=100');
  });

  it('joins several statuses and providers and passes the cursor on', () => {
    expect(runListParams({})).toBe('');
    expect(runListParams({ workspace: 2, statuses: ['failed', 'cancelled'], providers: ['openai'], limit: 50, before: 'abc-_' })).toBe(
      '?workspace=2&status=failed%2Ccancelled&provider=openai&limit=50&before=abc-_',
    );
    expect(runListParams({ statuses: [], before: null, createdBefore: '2026-11-21T00:00:00+01:00' })).toBe('?created_before=2026-11-21T00%3A00%3A00%2B01%3A00');
  });

  it('reads the total and the cursor from the headers', () => {
    expect(pageOf([1], new Headers({ 'X-Total-Count': '12', 'X-Next-Cursor': 'c1' }))).toEqual({ items: [1], total: 12, next: 'c1' });
    expect(pageOf([], new Headers())).toEqual({ items: [], total: null, next: null });
    expect(pageOf([], new Headers({ 'X-Total-Count': 'many' })).total).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { pageOf, runListParams, workflowListParams } from './lists';

describe('the list queries', () => {
  // The typed client leaves out what is undefined and encodes the rest (client.test.ts sees the URLs).
  const set = (query: object) => Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined));

  it('sends only what is set', () => {
    expect(set(workflowListParams({}))).toEqual({});
    expect(set(workflowListParams({ workspace: 4, q: ' a&b ', valid: false, updatedAfter: '2026-11-23T00:00:00.000Z', limit: 50, offset: 0 }))).toEqual({
      workspace: 4,
      q: 'a&b',
      valid: false,
      updated_after: '2026-11-23T00:00:00.000Z',
      limit: 50,
    });
    expect(set(workflowListParams({ workspace: null, q: '  ', offset: 100 }))).toEqual({ offset: 100 });
  });

  it('joins several statuses and providers and passes the cursor on', () => {
    expect(set(runListParams({}))).toEqual({});
    expect(set(runListParams({ workspace: 2, statuses: ['failed', 'cancelled'], providers: ['openai'], limit: 50, before: 'abc-_' }))).toEqual({
      workspace: 2,
      status: 'failed,cancelled',
      provider: 'openai',
      limit: 50,
      before: 'abc-_',
    });
    expect(set(runListParams({ statuses: [], before: null, createdBefore: '2026-11-21T00:00:00+01:00' }))).toEqual({ created_before: '2026-11-21T00:00:00+01:00' });
  });

  it('reads the total and the cursor from the headers', () => {
    expect(pageOf([1], new Headers({ 'X-Total-Count': '12', 'X-Next-Cursor': 'c1' }))).toEqual({ items: [1], total: 12, next: 'c1' });
    expect(pageOf([], new Headers())).toEqual({ items: [], total: null, next: null });
    expect(pageOf([], new Headers({ 'X-Total-Count': 'many' })).total).toBeNull();
  });
});

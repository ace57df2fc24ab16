import { describe, expect, it } from 'vitest';
import type { Run } from '../api/types';
import {
  NO_RUN_FILTERS,
  NO_WORKFLOW_FILTERS,
  calendarDay,
  readRunFilters,
  readWorkflowFilters,
  runMatches,
  runQuery,
  runsFiltered,
  withRunFilters,
  withWorkflowFilters,
  workflowQuery,
  workflowsFiltered,
} from './listFilters';

describe('the workflows list filters in the address', () => {
  it('reads nothing as no filter, and an unknown value as the default', () => {
    expect(readWorkflowFilters('')).toEqual(NO_WORKFLOW_FILTERS);
    expect(readWorkflowFilters('?valid=maybe&updated=yesterday')).toEqual(NO_WORKFLOW_FILTERS);
    expect(workflowsFiltered(readWorkflowFilters('?q=%20%20'))).toBe(false);
  });

  it('round-trips through the address and keeps what else is there', () => {
    const f = { q: 'nightly review ', valid: 'invalid' as const, updated: '7d' as const };
    const search = withWorkflowFilters('?workspace=4&q=old', f);
    expect(search).toBe('?workspace=4&q=nightly+review+&valid=invalid&updated=7d');
    expect(readWorkflowFilters(search)).toEqual(f);
    expect(workflowsFiltered(f)).toBe(true);
  });

  it('leaves the defaults out, down to an empty query', () => {
    expect(withWorkflowFilters('?q=x&valid=valid', NO_WORKFLOW_FILTERS)).toBe('');
    expect(withWorkflowFilters('?workspace=4&updated=today', NO_WORKFLOW_FILTERS)).toBe('?workspace=4');
  });

  it('asks the server from the start of the viewer’s day', () => {
    const now = new Date(2026, 10, 23, 15, 30);
    expect(workflowQuery(NO_WORKFLOW_FILTERS, now)).toEqual({ q: undefined, valid: undefined, updatedAfter: undefined });
    expect(workflowQuery({ q: '  Review ', valid: 'valid', updated: 'today' }, now)).toEqual({
      q: 'Review',
      valid: true,
      updatedAfter: new Date(2026, 10, 23).toISOString(),
    });
    expect(workflowQuery({ ...NO_WORKFLOW_FILTERS, valid: 'invalid', updated: '7d' }, now)).toMatchObject({
      valid: false,
      updatedAfter: new Date(2026, 10, 17).toISOString(),
    });
    expect(workflowQuery({ ...NO_WORKFLOW_FILTERS, updated: '30d' }, now).updatedAfter).toBe(new Date(2026, 9, 25).toISOString());
  });
});

describe('the runs list filters in the address', () => {
  it('reads statuses once each in the one order, dropping unknown ones', () => {
    expect(readRunFilters('?status=failed,bogus,queued,failed').statuses).toEqual(['queued', 'failed']);
    expect(readRunFilters('')).toEqual(NO_RUN_FILTERS);
  });

  it('refuses days that are not days and providers that are not names', () => {
    expect(calendarDay('2026-02-30')).toBe('');
    expect(calendarDay('2026-2-3')).toBe('');
    expect(calendarDay('2026-02-28')).toBe('2026-02-28');
    expect(readRunFilters('?from=tomorrow&to=2026-13-01&provider=%3Cscript%3E')).toEqual(NO_RUN_FILTERS);
  });

  it('round-trips through the address and keeps what else is there', () => {
    const f = { q: 'deploy', statuses: ['completed' as const, 'failed' as const], provider: 'openai', from: '2026-11-01', to: '2026-11-20' };
    const search = withRunFilters('?workspace=2', f);
    expect(search).toBe('?workspace=2&q=deploy&status=completed%2Cfailed&provider=openai&from=2026-11-01&to=2026-11-20');
    expect(readRunFilters(search)).toEqual(f);
    expect(runsFiltered(f)).toBe(true);
    expect(withRunFilters(search, NO_RUN_FILTERS)).toBe('?workspace=2');
    expect(runsFiltered(NO_RUN_FILTERS)).toBe(false);
  });

  it('asks the server for local days, the last one included', () => {
    expect(runQuery(NO_RUN_FILTERS)).toEqual({ q: undefined, statuses: undefined, providers: undefined, createdAfter: undefined, createdBefore: undefined });
    expect(runQuery({ q: ' Nightly ', statuses: ['failed'], provider: 'simulated', from: '2026-11-01', to: '2026-11-20' })).toEqual({
      q: 'Nightly',
      statuses: ['failed'],
      providers: ['simulated'],
      createdAfter: new Date(2026, 10, 1).toISOString(),
      createdBefore: new Date(2026, 10, 21).toISOString(),
    });
  });

  it('lets a live run into the list only when the filters would list it', () => {
    const run = { id: 'r', workflow_name: 'Nightly Review', status: 'failed', provider: 'openai', created_at: new Date(2026, 10, 20, 9).toISOString() } as Run;
    expect(runMatches(run, NO_RUN_FILTERS)).toBe(true);
    expect(runMatches(run, { ...NO_RUN_FILTERS, q: 'review' })).toBe(true);
    expect(runMatches(run, { ...NO_RUN_FILTERS, q: 'deploy' })).toBe(false);
    expect(runMatches(run, { ...NO_RUN_FILTERS, statuses: ['completed', 'failed'] })).toBe(true);
    expect(runMatches(run, { ...NO_RUN_FILTERS, statuses: ['completed'] })).toBe(false);
    expect(runMatches(run, { ...NO_RUN_FILTERS, provider: 'simulated' })).toBe(false);
    expect(runMatches(run, { ...NO_RUN_FILTERS, from: '2026-11-20', to: '2026-11-20' })).toBe(true);
    expect(runMatches(run, { ...NO_RUN_FILTERS, to: '2026-11-19' })).toBe(false);
    expect(runMatches(run, { ...NO_RUN_FILTERS, from: '2026-11-21' })).toBe(false);
  });
});

// First: it gives Node's Request a page address before the client is made (see testServer.ts).
import { fakeServer, signedIn } from '../api/testServer';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiFieldError } from '../api/client';
import { importOther, type ReportEntry } from './api';
import {
  bareMessage,
  countReport,
  countsSummary,
  groupReport,
  kindFromFileName,
  missingParameter,
  OUTCOME_ORDER,
  parametersOf,
} from './report';

const entry = (field: string, outcome: ReportEntry['outcome'], target: string | null = null, note = ''): ReportEntry => ({
  field,
  outcome,
  target,
  note,
});

const REPORT: ReportEntry[] = [
  entry('/blocks/draft/soul_ref', 'approximated', '/agents/writer', 'placeholder'),
  entry('/blocks/refine/max_rounds', 'carried', '/steps/0/loop/maxIterations'),
  entry('/blocks/x/retry', 'dropped', null, 'no retries in zenflow'),
  entry('/blocks/done/type', 'approximated', '/steps/1'),
  entry('/blocks/refine/type', 'carried', '/steps/0/loop'),
];

describe('countReport', () => {
  it('counts each outcome, zero when absent', () => {
    expect(countReport(REPORT)).toEqual({ carried: 2, approximated: 2, dropped: 1 });
    expect(countReport([])).toEqual({ carried: 0, approximated: 0, dropped: 0 });
  });

  it('ignores an outcome it does not know', () => {
    const odd = { ...entry('/a', 'carried'), outcome: 'mystery' } as unknown as ReportEntry;
    expect(countReport([odd, entry('/b', 'dropped')])).toEqual({ carried: 0, approximated: 0, dropped: 1 });
  });

  it('reads as a sentence', () => {
    expect(countsSummary(countReport(REPORT))).toBe('2 carried · 2 approximated · 1 dropped');
  });
});

describe('groupReport', () => {
  it('groups by outcome, what needs attention first, keeping the server order inside a group', () => {
    const groups = groupReport(REPORT);
    expect(groups.map((g) => g.outcome)).toEqual(['dropped', 'approximated', 'carried']);
    expect(groups[1].entries.map((e) => e.field)).toEqual(['/blocks/draft/soul_ref', '/blocks/done/type']);
    expect(groups[2].entries.map((e) => e.field)).toEqual(['/blocks/refine/max_rounds', '/blocks/refine/type']);
  });

  it('leaves empty groups out and loses no entry', () => {
    const onlyCarried = REPORT.filter((e) => e.outcome === 'carried');
    expect(groupReport(onlyCarried).map((g) => g.outcome)).toEqual(['carried']);
    expect(groupReport([])).toEqual([]);
    expect(groupReport(REPORT).reduce((n, g) => n + g.entries.length, 0)).toBe(REPORT.length);
    expect(OUTCOME_ORDER).toHaveLength(3);
  });
});

describe('parametersOf', () => {
  it('keeps named rows, trims names, later rows win, values as typed', () => {
    expect(
      parametersOf([
        { name: ' subject ', value: 'the cache' },
        { name: '', value: 'ignored' },
        { name: 'rounds', value: '3' },
        { name: 'rounds', value: ' 4 ' },
      ]),
    ).toEqual({ subject: 'the cache', rounds: ' 4 ' });
    expect(parametersOf([])).toEqual({});
  });
});

describe('the 422 answer', () => {
  const detail = "/parameters/0/name: parameter 'subject' is required: give it a value (--param subject=...)";

  it('names the missing parameter', () => {
    expect(missingParameter(detail)).toBe('subject');
    expect(missingParameter('the Runsight workflow is not valid YAML (line 2)')).toBeNull();
  });

  it('shows the message without the field and line it shows apart', () => {
    expect(bareMessage(detail, '/parameters/0/name', null)).toBe("parameter 'subject' is required: give it a value (--param subject=...)");
    expect(bareMessage('not valid YAML: expected , (line 2)', null, 2)).toBe('not valid YAML: expected ,');
    expect(bareMessage('something else', '/a', 3)).toBe('something else');
  });

  it('guesses the kind from a file name', () => {
    expect(kindFromFileName('harness.JSON')).toBe('coqui');
    expect(kindFromFileName('basic_loop.yml')).toBe('runsight');
    expect(kindFromFileName('notes.txt')).toBeNull();
  });
});

describe('importOther', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('posts kind, source and parameters with the CSRF token, and keeps field and line of a 422', async () => {
    signedIn();
    vi.stubGlobal('document', { cookie: 'other=1; csrftoken=tok%3D1' });
    const calls = fakeServer(
      () =>
        new Response(JSON.stringify({ detail: "/parameters/0/name: parameter 'subject' is required", field: '/parameters/0/name', line: null }), {
          status: 422,
        }),
    );
    const err = await importOther({ kind: 'coqui', source: '{}', parameters: { a: 'b' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiFieldError);
    const fe = err as ApiFieldError;
    expect(fe.status).toBe(422);
    expect(fe.field).toBe('/parameters/0/name');
    expect(fe.line).toBeNull();
    expect(missingParameter(fe.message)).toBe('subject');
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe('/api/v1/import');
    expect(calls[0].method).toBe('POST');
    expect(calls[0].headers.get('X-CSRFToken')).toBe('tok=1');
    expect(calls[0].body).toEqual({ kind: 'coqui', source: '{}', parameters: { a: 'b' } });
  });
});

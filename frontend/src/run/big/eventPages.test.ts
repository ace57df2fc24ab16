import { describe, expect, it } from 'vitest';
import { pageEnds, pageQuery, stepFrom } from './eventPages';

const all = { type: '', step: '' };

describe('pageQuery', () => {
  it('asks for the newest page as the one before the next seq', () => {
    expect(pageQuery({ kind: 'newest' }, 900, all)).toEqual({ limit: 200, before: 901 });
  });

  it('asks for older pages before a seq and newer ones after it', () => {
    expect(pageQuery({ kind: 'older', before: 701 }, 900, all)).toEqual({ limit: 200, before: 701 });
    expect(pageQuery({ kind: 'newer', after: 500 }, 900, all)).toEqual({ limit: 200, after: 500 });
  });

  it('filters by type and step', () => {
    expect(pageQuery({ kind: 'newest' }, 9, { type: 'iteration_end', step: 'each' })).toEqual({ limit: 200, before: 10, types: ['iteration_end'], step: 'each' });
  });
});

describe('pageEnds', () => {
  it('knows the newest page is the newest, and a short one is also the oldest', () => {
    expect(pageEnds({ kind: 'newest' }, 200)).toEqual({ atOldest: false, atNewest: true });
    expect(pageEnds({ kind: 'newest' }, 12)).toEqual({ atOldest: true, atNewest: true });
  });

  it('reads a short page going back as the oldest, going on as the newest', () => {
    expect(pageEnds({ kind: 'older', before: 300 }, 99)).toEqual({ atOldest: true, atNewest: false });
    expect(pageEnds({ kind: 'older', before: 300 }, 200)).toEqual({ atOldest: false, atNewest: false });
    expect(pageEnds({ kind: 'newer', after: 300 }, 50)).toEqual({ atOldest: false, atNewest: true });
    expect(pageEnds({ kind: 'newer', after: 300 }, 200)).toEqual({ atOldest: false, atNewest: false });
  });
});

describe('stepFrom', () => {
  const page = [{ seq: 401 }, { seq: 402 }, { seq: 600 }];

  it('pages back from the first seq and on from the last', () => {
    expect(stepFrom(page, 'older')).toEqual({ kind: 'older', before: 401 });
    expect(stepFrom(page, 'newer')).toEqual({ kind: 'newer', after: 600 });
    expect(stepFrom([], 'older')).toBeNull();
  });
});

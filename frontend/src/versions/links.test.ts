import { describe, expect, it } from 'vitest';
import { choosePair, compareUrl, readPair } from './links';

describe('readPair', () => {
  it('reads whole numbers above zero and ignores the rest', () => {
    expect(readPair('?a=2&b=5')).toEqual({ a: 2, b: 5 });
    expect(readPair('?a=0&b=x')).toEqual({ a: null, b: null });
    expect(readPair('?a=-1&b=1e3')).toEqual({ a: null, b: null });
    expect(readPair('')).toEqual({ a: null, b: null });
  });
});

describe('choosePair', () => {
  const versions = [4, 3, 2, 1];

  it('defaults to the version before the latest against the latest', () => {
    expect(choosePair(versions, { a: null, b: null })).toEqual({ a: 3, b: 4, note: '' });
  });

  it('keeps the address when both versions exist, in either order', () => {
    expect(choosePair(versions, { a: 1, b: 3 })).toEqual({ a: 1, b: 3, note: '' });
    expect(choosePair(versions, { a: 4, b: 2 })).toEqual({ a: 4, b: 2, note: '' });
  });

  it('compares one named version with the latest, or the one before it', () => {
    expect(choosePair(versions, { a: 2, b: null })).toEqual({ a: 2, b: 4, note: '' });
    expect(choosePair(versions, { a: 4, b: null })).toEqual({ a: 4, b: 3, note: '' });
    expect(choosePair(versions, { a: null, b: 3 })).toEqual({ a: 2, b: 3, note: '' });
  });

  it('says so when the address names a version that does not exist', () => {
    const pair = choosePair(versions, { a: 9, b: 2 });
    expect(pair).toMatchObject({ a: 3, b: 4 });
    expect(pair?.note).toBe('There is no version 9 (versions 1 to 4): showing the latest change instead.');
  });

  it('has nothing to compare with fewer than two versions', () => {
    expect(choosePair([1], { a: null, b: null })).toBeNull();
  });

  it('builds the address back', () => {
    expect(compareUrl(7, 1, 2)).toBe('/workflows/7/compare?a=1&b=2');
    expect(compareUrl(7)).toBe('/workflows/7/compare');
  });
});

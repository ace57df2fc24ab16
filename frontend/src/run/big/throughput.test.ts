import { describe, expect, it } from 'vitest';
import { eta, overallRate, pushSample, rateText, throughput, type Sample } from './throughput';

function feed(points: [number, number][]): Sample[] {
  return points.reduce<Sample[]>((samples, [t, done]) => pushSample(samples, { t, done }), []);
}

describe('throughput', () => {
  it('is items per second over the window', () => {
    const samples = feed([
      [0, 0],
      [1000, 10],
      [2000, 20],
    ]);
    expect(throughput(samples, 2000)).toBe(10);
  });

  it('waits for a second of data', () => {
    expect(throughput([], 0)).toBeNull();
    expect(throughput(feed([[0, 5]]), 500)).toBeNull();
  });

  it('measures only the last ten seconds', () => {
    const samples = feed([
      [0, 0],
      [10_000, 1000], // fast at first
      [20_000, 1100], // then slow
    ]);
    expect(samples[0].t).toBe(10_000);
    expect(throughput(samples, 20_000)).toBe(10);
  });

  it('falls while nothing finishes', () => {
    const samples = feed([
      [0, 0],
      [1000, 10],
    ]);
    expect(throughput(samples, 1000)).toBe(10);
    expect(throughput(samples, 5000)).toBe(2);
  });

  it('keeps the window start when the count repeats', () => {
    const samples = feed([
      [0, 0],
      [1000, 10],
      [2000, 10],
      [3000, 10],
    ]);
    expect(samples).toHaveLength(2);
    expect(throughput(samples, 3000)).toBeCloseTo(10 / 3);
  });

  it('starts over when the count goes down', () => {
    const samples = feed([
      [0, 0],
      [1000, 50],
      [2000, 3],
    ]);
    expect(samples).toEqual([{ t: 2000, done: 3 }]);
  });
});

describe('eta', () => {
  it('is the remaining items at the rate', () => {
    expect(eta(100, 10)).toBe(10);
  });

  it('is zero when nothing remains and unknown without a rate', () => {
    expect(eta(0, null)).toBe(0);
    expect(eta(5, null)).toBeNull();
    expect(eta(5, 0)).toBeNull();
  });
});

describe('overallRate', () => {
  it('is the whole loop over its time', () => {
    expect(overallRate(200, '2026-01-01T00:00:00Z', '2026-01-01T00:00:20Z')).toBe(10);
    expect(overallRate(200, null, '2026-01-01T00:00:20Z')).toBeNull();
    expect(overallRate(200, '2026-01-01T00:00:20Z', '2026-01-01T00:00:20Z')).toBeNull();
  });
});

describe('rateText', () => {
  it('keeps a few digits', () => {
    expect(rateText(0.4)).toBe('0.40/s');
    expect(rateText(12.54)).toBe('12.5/s');
    expect(rateText(1200.2)).toBe('1,200/s');
  });
});

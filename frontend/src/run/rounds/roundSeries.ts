// A loop's rounds as chart series: x is the round (1-based, as on screen), y one metric at a time
// (time, tokens, cost, or a numeric field of the rounds' or the judge's structured results), with
// the judge's verdict per round as counts of marks. Past MAX_POINTS rounds, rounds are bucketed
// (min, mean and max per bucket; marks counted) so a 10,000-item forEach draws 500 points, not
// 10,000. A big run's rounds come already bucketed by the server (seriesOfBuckets): the same series,
// so the same chart, legend and table draw both. Pure.
import { isObject, type Json } from '../../doc/types';
import type { BucketStat, RoundBucket, ViewRounds } from '../view/merge';
import type { Mark, RoundRecord } from './roundRecords';

export const MAX_POINTS = 500;
/** Discovered fields shown in the metric picker, at most: a result with hundreds of numbers is not a picker. */
export const MAX_FIELDS = 12;
/** How deep nested result fields are looked for (`judge.scores.clarity` is depth 2). */
const MAX_DEPTH = 3;

export type MetricKey = string;

export interface Metric {
  key: MetricKey;
  /** What the picker and the table call it. */
  label: string;
  /** Shown beside the metric's name: 's', 'USD', or '' when the name says it (tokens, a result field). */
  unit: string;
}

export const TIME: Metric = { key: 'time', label: 'Time', unit: 's' };
export const TOKENS: Metric = { key: 'tokens', label: 'Tokens', unit: '' };
export const COST: Metric = { key: 'cost', label: 'Cost', unit: 'USD' };

/** A numeric field of a structured result: where it is, and the metric that plots it. */
export interface Field extends Metric {
  source: 'result' | 'judge';
  path: string[];
}

export const MARKS: Mark[] = ['pass', 'fail', 'error'];

export interface Point {
  /** First and last round of the point (1-based); equal when rounds are not bucketed. */
  from: number;
  to: number;
  /** Rounds in the bucket that have a record (a running forEach fills in out of order). */
  rounds: number;
  /** Per metric key: the values' min, mean and max over the bucket (null: no round has one yet). */
  min: Record<MetricKey, number | null>;
  mean: Record<MetricKey, number | null>;
  max: Record<MetricKey, number | null>;
  /** How many rounds of the bucket the judge marked each way. */
  marks: Record<Mark, number>;
}

export interface LoopSeries {
  /** How many rounds have a record. */
  rounds: number;
  /** Rounds per point: 1 until the loop passes MAX_POINTS rounds. */
  bucket: number;
  /** Time, tokens and cost, then the discovered fields. */
  metrics: Metric[];
  fields: Field[];
  /** Metrics that at least one round has a value for (cost is absent while turns do not report it). */
  present: Set<MetricKey>;
  points: Point[];
}

function finite(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

/** Leaves looked at per result, at most: a result with thousands of numbers costs no more than this. */
const MAX_LEAVES = 64;

function fieldKey(source: Field['source'], path: string[]): string {
  // A key with a dot in it would read as two levels: JSON keeps the path exact.
  return `${source}:${JSON.stringify(path)}`;
}

// One Field object per key for the page's life: a picked field stays the same object from one live
// update to the next, and a round's leaves point at it.
const FIELDS = new Map<string, Field>();

function fieldFor(source: Field['source'], path: string[]): Field {
  const key = fieldKey(source, path);
  let f = FIELDS.get(key);
  if (!f) {
    f = { key, source, path, label: `${source === 'judge' ? 'Judge' : 'Result'}: ${path.join('.')}`, unit: '' };
    FIELDS.set(key, f);
  }
  return f;
}

/** Numeric leaves of a value by dotted path (arrays and booleans are not plotted). */
function numericLeaves(source: Field['source'], value: Json | undefined, prefix: string[], depth: number, out: [Field, number][]): void {
  if (!isObject(value) || depth > MAX_DEPTH) return;
  for (const [k, v] of Object.entries(value)) {
    if (out.length >= MAX_LEAVES) return;
    if (finite(v)) out.push([fieldFor(source, [...prefix, k]), v]);
    else if (isObject(v)) numericLeaves(source, v, [...prefix, k], depth + 1, out);
  }
}

// Records are kept per iteration (roundRecords.ts): a round's results are walked once, not once a frame.
const LEAVES = new WeakMap<RoundRecord, [Field, number][]>();

/** A round's numeric result fields, the judge's first. */
function leavesOf(r: RoundRecord): [Field, number][] {
  let leaves = LEAVES.get(r);
  if (!leaves) {
    leaves = [];
    numericLeaves('judge', r.judge, [], 1, leaves);
    numericLeaves('result', r.result, [], 1, leaves);
    LEAVES.set(r, leaves);
  }
  return leaves;
}

/** Numeric fields found in the rounds' results and the judge's, in order of first appearance, capped. */
export function discoverFields(rounds: readonly RoundRecord[], cap = MAX_FIELDS): Field[] {
  const found = new Set<Field>();
  for (const r of rounds) {
    for (const [f] of leavesOf(r)) {
      if (found.has(f)) continue;
      if (found.size >= cap) return [...found];
      found.add(f);
    }
  }
  return [...found];
}

/** One round's value of a metric (undefined: the round has none, e.g. still running). */
export function valueOf(r: RoundRecord, metric: Metric): number | undefined {
  if (metric.key === TIME.key) return r.durationMs !== undefined ? r.durationMs / 1000 : undefined;
  if (metric.key === TOKENS.key) return r.tokens;
  if (metric.key === COST.key) return r.costUsd;
  return leavesOf(r).find(([f]) => f.key === metric.key)?.[1];
}

/** Rounds per point so that `span` rounds make at most `maxPoints` points. */
export function bucketSize(span: number, maxPoints = MAX_POINTS): number {
  return span <= maxPoints ? 1 : Math.ceil(span / maxPoints);
}

/** Sums, counts, minima and maxima of every metric in every bucket, in flat arrays (bucket-major). */
class Accumulator {
  readonly sum: Float64Array;
  readonly count: Uint32Array;
  readonly min: Float64Array;
  readonly max: Float64Array;
  constructor(readonly width: number, buckets: number) {
    const n = width * buckets;
    this.sum = new Float64Array(n);
    this.count = new Uint32Array(n);
    this.min = new Float64Array(n).fill(Infinity);
    this.max = new Float64Array(n).fill(-Infinity);
  }
  add(bucket: number, metric: number, v: number): void {
    const i = bucket * this.width + metric;
    this.sum[i] += v;
    this.count[i]++;
    if (v < this.min[i]) this.min[i] = v;
    if (v > this.max[i]) this.max[i] = v;
  }
}

/** A loop's series: every metric's points at once, so switching the picked metric costs nothing. */
export function buildSeries(rounds: readonly RoundRecord[], maxPoints = MAX_POINTS, fieldCap = MAX_FIELDS): LoopSeries {
  const fields = discoverFields(rounds, fieldCap);
  const metrics: Metric[] = [TIME, TOKENS, COST, ...fields];
  const column = new Map<Field, number>(fields.map((f, i) => [f, i + 3]));
  const span = rounds.reduce((m, r) => Math.max(m, r.round + 1), 0);
  const bucket = bucketSize(span, maxPoints);
  const buckets = Math.ceil(span / bucket);
  const acc = new Accumulator(metrics.length, buckets);
  const seen = new Uint32Array(buckets);
  const marks = MARKS.map(() => new Uint32Array(buckets));
  for (const r of rounds) {
    const b = Math.floor(r.round / bucket);
    seen[b]++;
    if (r.mark) marks[MARKS.indexOf(r.mark)][b]++;
    if (r.durationMs !== undefined) acc.add(b, 0, r.durationMs / 1000);
    if (r.tokens !== undefined) acc.add(b, 1, r.tokens);
    if (r.costUsd !== undefined) acc.add(b, 2, r.costUsd);
    for (const [f, v] of leavesOf(r)) {
      const m = column.get(f);
      if (m !== undefined) acc.add(b, m, v);
    }
  }
  const present = new Set<MetricKey>();
  const points: Point[] = [];
  for (let b = 0; b < buckets; b++) {
    if (!seen[b]) continue;
    const mean: Record<MetricKey, number | null> = {};
    const min: Record<MetricKey, number | null> = {};
    const max: Record<MetricKey, number | null> = {};
    metrics.forEach((m, k) => {
      const i = b * metrics.length + k;
      const n = acc.count[i];
      if (n) present.add(m.key);
      mean[m.key] = n ? acc.sum[i] / n : null;
      min[m.key] = n ? acc.min[i] : null;
      max[m.key] = n ? acc.max[i] : null;
    });
    const from = b * bucket;
    // 1-based on screen; the last bucket ends at the last round there is, not past it.
    points.push({
      from: from + 1,
      to: Math.min(from + bucket, span),
      rounds: seen[b],
      min,
      mean,
      max,
      marks: { pass: marks[0][b], fail: marks[1][b], error: marks[2][b] },
    });
  }
  return { rounds: rounds.length, bucket, metrics, fields, present, points };
}

/** The picked metric, or time when the picked one is gone (a field of another loop, say). */
export function metricOf(series: LoopSeries, key: MetricKey): Metric {
  return series.metrics.find((m) => m.key === key) ?? TIME;
}

/** uPlot's columns for one metric: x, mean, and (when bucketed) min and max. */
export type Columns = [x: number[], ...y: (number | null)[][]];

export function chartColumns(series: LoopSeries, metric: Metric): Columns {
  const x = series.points.map((p) => p.from);
  const mean = series.points.map((p) => p.mean[metric.key] ?? null);
  if (series.bucket === 1) return [x, mean];
  return [x, mean, series.points.map((p) => p.min[metric.key] ?? null), series.points.map((p) => p.max[metric.key] ?? null)];
}

type Values = Pick<Point, 'min' | 'mean' | 'max'>;

function putStat(into: Values, key: MetricKey, stat: BucketStat | undefined, scale = 1): void {
  const ok = stat !== undefined && stat[0] > 0;
  into.mean[key] = ok ? stat[1] / stat[0] / scale : null;
  into.min[key] = ok ? stat[2] / scale : null;
  into.max[key] = ok ? stat[3] / scale : null;
}

/** A total over the bucket's rounds: its mean per round (the server keeps no per-round minimum or maximum). */
function putTotal(into: Values, key: MetricKey, total: number | undefined, rounds: number): void {
  into.mean[key] = total !== undefined && rounds > 0 ? total / rounds : null;
  into.min[key] = null;
  into.max[key] = null;
}

function marksOf(b: RoundBucket): Record<Mark, number> {
  const v = b.verdicts ?? {};
  // As for a round's own record: a failed round without a verdict is an error mark.
  return { pass: v.done ?? 0, fail: v.not_done ?? 0, error: (v.failed_open ?? 0) + (b.status.failed ?? 0) };
}

/** A loop's series from the server's buckets (runtime/live/view/rounds.py): one point per bucket with finished rounds. */
export function seriesOfBuckets(view: ViewRounds, fieldCap = MAX_FIELDS): LoopSeries {
  const fields = view.fields.slice(0, fieldCap).map((f) => fieldFor(f.source === 'judge' ? 'judge' : 'result', f.path.map(String)));
  const metrics: Metric[] = [TIME, TOKENS, COST, ...fields];
  const width = Math.max(1, Math.floor(view.width) || 1);
  const present = new Set<MetricKey>();
  const points: Point[] = [];
  let rounds = 0;
  const numbers = Object.keys(view.buckets)
    .map(Number)
    .filter((b) => Number.isInteger(b) && b >= 0)
    .sort((a, b) => a - b);
  for (const b of numbers) {
    const bucket = view.buckets[String(b)];
    if (!bucket || !(bucket.n > 0)) continue;
    const values: Values = { min: {}, mean: {}, max: {} };
    putStat(values, TIME.key, bucket.time, 1000);
    putTotal(values, TOKENS.key, bucket.tokens, bucket.n);
    putTotal(values, COST.key, bucket.cost, bucket.n);
    fields.forEach((f, i) => putStat(values, f.key, bucket.fields?.[String(i)]));
    for (const m of metrics) if (values.mean[m.key] !== null) present.add(m.key);
    const from = b * width;
    points.push({ from: from + 1, to: Math.max(from + 1, Math.min(from + width, view.span)), rounds: bucket.n, ...values, marks: marksOf(bucket) });
    rounds += bucket.n;
  }
  return { rounds, bucket: width, metrics, fields, present, points };
}

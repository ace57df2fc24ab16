// uPlot options for one loop's chart and one metric. Colours come from the page's CSS variables
// (styles.css), read each time the chart draws, so another theme is drawn in its own colours.
import uPlot from 'uplot';
import { MARK_STRIP, paintMarks } from './markPaint';
import type { Metric, Point } from './roundSeries';
import type { ChartOptions } from './UPlotChart';
import { formatValue } from './roundWords';

const FALLBACK: Record<string, string> = { '--accent': '#3b5bdb', '--ink': '#1d2330', '--muted': '#5e6a7d', '--line': '#e2e6ee', '--ok': '#18743f', '--bad': '#c92a2a', '--warn': '#8a5a0f' };

/** Rounds are whole: the x axis never ticks at 1.5. */
const ROUND_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 1_000_000];

/** A y tick: three significant digits, so that a cost of $0.00001 is not written 0. */
export function tickText(v: number): string {
  return Math.abs(v) >= 1000 ? Math.round(v).toLocaleString('en-US') : String(Number(v.toPrecision(3)));
}

export function cssVar(el: Element, name: string): string {
  return getComputedStyle(el).getPropertyValue(name).trim() || FALLBACK[name] || '#888';
}

export interface ChartSetup {
  metric: Metric;
  bucketed: boolean;
  /** 'Round' or 'Item'. */
  xWord: string;
}

export function chartOptions({ metric, bucketed, xWord }: ChartSetup): ChartOptions {
  const colour = (name: string) => (u: uPlot) => cssVar(u.root, name);
  const value = (_u: uPlot, v: number | null) => formatValue(metric, v);
  const series: uPlot.Series[] = [
    { label: bucketed ? `${xWord}s from` : xWord, value: (_u, v) => (v == null ? '—' : v.toLocaleString('en-US')) },
    { label: bucketed ? `${metric.label} (mean)` : metric.label, stroke: colour('--accent'), width: 2, spanGaps: false, value, points: { show: !bucketed, size: 5 } },
  ];
  if (bucketed) {
    series.push(
      { label: 'min', stroke: colour('--muted'), width: 1, dash: [4, 3], value, points: { show: false } },
      { label: 'max', stroke: colour('--muted'), width: 1, dash: [4, 3], value, points: { show: false } },
    );
  }
  const axis = (label: string): uPlot.Axis => ({
    label,
    stroke: colour('--ink'),
    grid: { stroke: colour('--line'), width: 1 },
    ticks: { stroke: colour('--line'), width: 1 },
  });
  return {
    padding: [MARK_STRIP + 8, 12, 0, 0],
    scales: { x: { time: false } },
    cursor: { drag: { x: false, y: false } },
    legend: { show: true, live: true },
    series,
    axes: [{ ...axis(xWord), incrs: ROUND_STEPS }, { ...axis(metric.unit ? `${metric.label} (${metric.unit})` : metric.label), size: 70, values: (_u, splits) => splits.map(tickText) }],
  };
}

/** Draws the judge's marks of `points` above the plot, in the page's colours of the moment. */
export function drawMarks(u: uPlot, points: readonly Point[]): void {
  const el = u.root;
  paintMarks(u.ctx, points, (x) => u.valToPos(x, 'x', true), u.bbox.top, uPlot.pxRatio || 1, {
    pass: cssVar(el, '--ok'),
    fail: cssVar(el, '--bad'),
    error: cssVar(el, '--warn'),
  });
}

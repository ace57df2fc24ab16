// One loop's rounds as a chart: a metric picked from time, tokens, cost and the numeric fields of
// the rounds' and the judge's results; the judge's marks above the plot with a legend in words; the
// same points as a table. Live: the series is rebuilt at most once an animation frame, and the chart
// takes it with setData (the chart is made again only for another metric or theme). SeriesChart draws
// any loop's series: this page's, built from its rounds, or the big-run page's, from the server's buckets.
import { useCallback, useId, useMemo, useState } from 'react';
import type uPlot from 'uplot';
import type { LoopRun } from '../reduce';
import type { ToolLog } from '../toolCalls';
import { chartOptions, drawMarks } from './chartOptions';
import { roundsOfLoop } from './roundRecords';
import { buildSeries, chartColumns, COST, metricOf, TIME, type LoopSeries, type MetricKey } from './roundSeries';
import { RoundsLegend } from './RoundsLegend';
import { RoundsTable } from './RoundsTable';
import { UPlotChart } from './UPlotChart';
import { useFrameValue } from './useFrameValue';
import { useThemeVersion } from './useThemeVersion';
import './rounds.css';

const HEIGHT = 220;
/** Past this many rounds, the chart follows a live loop four times a second rather than every frame. */
const MANY_ROUNDS = 2000;

export interface RoundsChartProps {
  loopKey: string;
  loop: LoopRun;
  /** The run's tool log: the judge's submitted results are read from it. */
  tools: ToolLog;
}

export function RoundsChart({ loopKey, loop, tools }: RoundsChartProps) {
  const shown = useFrameValue(loop, loop.iterations.length > MANY_ROUNDS ? 250 : 0);
  const series = useMemo(() => buildSeries(roundsOfLoop(loopKey, shown, tools)), [loopKey, shown, tools]);
  return <SeriesChart loopKey={loopKey} series={series} xWord={shown.loopType === 'forEach' ? 'Item' : 'Round'} />;
}

export interface SeriesChartProps {
  loopKey: string;
  series: LoopSeries;
  /** 'Item' for a forEach, 'Round' for a repeat-until. */
  xWord: string;
}

/** One loop's series: the metric picker, the chart with the judge's marks, the legend and the table. */
export function SeriesChart({ loopKey, series, xWord }: SeriesChartProps) {
  const [picked, setPicked] = useState<MetricKey>(TIME.key);
  const metric = metricOf(series, picked);
  const bucketed = series.bucket > 1;
  const theme = useThemeVersion();
  const onDraw = useCallback((u: uPlot) => drawMarks(u, series.points), [series]);
  const options = useMemo(
    () => chartOptions({ metric, bucketed, xWord }),
    // By the metric's key, not the object (each series makes new ones): new options make a new chart.
    // The theme is not read here: its new version makes a new chart, which reads the new colours.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [metric.key, metric.label, bucketed, xWord, theme],
  );
  const data = useMemo(() => chartColumns(series, metric), [series, metric]);
  const pickerId = useId();
  const missing = !series.present.has(metric.key);
  return (
    <section className="rounds-loop" data-testid={`rounds-loop-${loopKey}`} data-rounds={series.rounds} data-bucket={series.bucket}>
      <h4 className="side-title">
        Loop {loopKey}{' '}
        <span className="muted small">
          · {series.rounds.toLocaleString('en-US')} {xWord.toLowerCase()}
          {series.rounds === 1 ? '' : 's'}
          {bucketed ? ` · each point is ${series.bucket} ${xWord.toLowerCase()}s (mean, with min and max dashed)` : ''}
        </span>
      </h4>
      <div className="rounds-picker">
        <label htmlFor={pickerId}>Plot</label>
        <select id={pickerId} value={metric.key} onChange={(e) => setPicked(e.target.value)} data-testid={`rounds-metric-${loopKey}`}>
          {series.metrics.map((m) => (
            <option key={m.key} value={m.key}>
              {m.unit ? `${m.label} (${m.unit})` : m.label}
            </option>
          ))}
        </select>
      </div>
      {missing && (
        <p className="muted small" data-testid="rounds-missing">
          {metric.key === COST.key
            ? 'No round of this loop reports a cost yet: a model without a known price is left out, never counted as $0.'
            : `No ${xWord.toLowerCase()} has a value for ${metric.label} yet.`}
        </p>
      )}
      <UPlotChart
        options={options}
        data={data}
        height={HEIGHT}
        className="rounds-chart"
        testId={`rounds-chart-${loopKey}`}
        onDraw={onDraw}
        label={`${metric.label} per ${xWord.toLowerCase()} of loop ${loopKey}; the table below lists the same values.`}
      />
      <RoundsLegend series={series} />
      <RoundsTable loopKey={loopKey} series={series} metric={metric} xWord={xWord} />
    </section>
  );
}

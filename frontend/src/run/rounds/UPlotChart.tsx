// A small React wrapper around uPlot: the chart is made once per set of options, fed new data with
// setData (no redraw from scratch), sized to its box with a ResizeObserver, destroyed on unmount.
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export type ChartOptions = Omit<uPlot.Options, 'width' | 'height'>;

export interface UPlotChartProps {
  /** A new object makes a new chart: keep it stable (useMemo) while only the data changes. */
  options: ChartOptions;
  data: uPlot.AlignedData;
  height: number;
  className?: string;
  testId?: string;
  label: string;
  /** Draws over the chart after each redraw (with the data it was given last). */
  onDraw?: (u: uPlot) => void;
}

export function UPlotChart({ options, data, height, className, testId, label, onDraw }: UPlotChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const latest = useRef(data);
  const draw = useRef(onDraw);

  useEffect(() => {
    latest.current = data;
    draw.current = onDraw;
    plot.current?.setData(data);
  }, [data, onDraw]);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const hooks = { ...options.hooks, draw: [...(options.hooks?.draw ?? []), (u: uPlot) => draw.current?.(u)] };
    const chart = new uPlot({ ...options, hooks, width: Math.max(el.clientWidth, 50), height }, latest.current, el);
    plot.current = chart;
    const observer = new ResizeObserver(([entry]) => {
      const width = Math.floor(entry.contentRect.width);
      // A hidden box measures 0: keep the last size until it is shown again.
      if (width > 0 && width !== chart.width) chart.setSize({ width, height });
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
      chart.destroy();
      plot.current = null;
    };
  }, [options, height]);

  return <div ref={box} className={className} data-testid={testId} role="img" aria-label={label} />;
}

"use client";

import dynamic from "next/dynamic";
import type { TimeSeriesPoint } from "./time-series-chart";

export type { TimeSeriesPoint };

const Chart = dynamic(() => import("./time-series-chart"), { ssr: false });

/**
 * A daily time series: a line chart (uPlot, in its own chunk, loaded only by pages that show one)
 * with the same figures as a visually hidden table for screen readers. The box has a fixed height,
 * so nothing moves when the chart arrives.
 */
export function TimeSeries({
  points,
  label,
  height = 180,
  valueLabel = "Count",
}: {
  points: readonly TimeSeriesPoint[];
  label: string;
  height?: number;
  valueLabel?: string;
}) {
  const total = points.reduce((sum, p) => sum + p.value, 0);
  return (
    <figure className="grid gap-2">
      <figcaption className="flex items-baseline justify-between gap-2 text-sm">
        <span className="font-medium">{label}</span>
        <span className="tabular-nums text-muted-foreground">Total {total.toLocaleString("en-US")}</span>
      </figcaption>
      <div style={{ height }} className="w-full min-w-0">
        <Chart points={points} label={label} height={height} valueLabel={valueLabel} />
      </div>
      <table className="sr-only">
        <caption>{label}, by day (UTC)</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">{valueLabel}</th>
          </tr>
        </thead>
        <tbody>
          {points.map((p) => (
            <tr key={p.day}>
              <td>{p.day}</td>
              <td>{p.value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

"use client";

import { useEffect, useRef } from "react";
import type uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

export type TimeSeriesPoint = { day: string; value: number };

type Props = { points: readonly TimeSeriesPoint[]; label: string; height: number };

const css = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

/** Draws with uPlot in the theme's colours; redraws on resize and when the theme changes. */
export default function TimeSeriesChart({ points, label, height }: Props) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    let plot: uPlot | undefined;
    let cancelled = false;
    const draw = async () => {
      const { default: UPlot } = await import("uplot");
      if (cancelled) return;
      plot?.destroy();
      const fg = css("--muted-foreground");
      const grid = css("--border");
      const line = css("--primary");
      const xs = points.map((p) => Date.parse(`${p.day}T00:00:00Z`) / 1000);
      const ys = points.map((p) => p.value);
      plot = new UPlot(
        {
          width: el.clientWidth,
          height,
          legend: { show: false },
          cursor: { drag: { x: false, y: false } },
          scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
          axes: [
            { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } },
            { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid }, size: 44 },
          ],
          series: [
            {},
            { label, stroke: line, width: 2, fill: `color-mix(in oklch, ${line} 14%, transparent)` },
          ],
        },
        [xs, ys],
        el,
      );
    };
    void draw();
    const resize = new ResizeObserver(() => plot?.setSize({ width: el.clientWidth, height }));
    resize.observe(el);
    // next-themes switches a class on <html>: redraw in the new colours.
    const theme = new MutationObserver(() => void draw());
    theme.observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
    return () => {
      cancelled = true;
      resize.disconnect();
      theme.disconnect();
      plot?.destroy();
    };
  }, [points, label, height]);
  return <div ref={box} aria-hidden style={{ height }} />;
}

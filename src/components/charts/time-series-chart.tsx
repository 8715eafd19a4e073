"use client";

import { useEffect, useRef } from "react";
import type uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { plural } from "@/core/plural";

export type TimeSeriesPoint = { day: string; value: number };

type Props = { points: readonly TimeSeriesPoint[]; label: string; height: number; valueLabel?: string };

const dayFormat = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

/** The pointed-at day's figure, in a small box inside the plot that follows the cursor. */
function tooltip(points: readonly TimeSeriesPoint[], valueLabel: string) {
  const tip = document.createElement("div");
  tip.className =
    "pointer-events-none absolute z-10 hidden rounded-md border border-border bg-popover px-2 py-1 text-xs whitespace-nowrap text-popover-foreground shadow-md";
  tip.dataset.testid = "chart-tooltip";
  return {
    init: (u: uPlot) => {
      u.over.appendChild(tip);
    },
    setCursor: (u: uPlot) => {
      const i = u.cursor.idx;
      const point = i == null ? undefined : points[i];
      if (!point || u.cursor.left == null || u.cursor.left < 0) {
        tip.classList.add("hidden");
        return;
      }
      tip.textContent = `${dayFormat.format(Date.parse(`${point.day}T00:00:00Z`))}: ${plural(point.value, valueLabel.replace(/s$/, ""), valueLabel)}`;
      tip.classList.remove("hidden");
      // Beside the cursor, flipped to its left in the right half so it stays inside the plot.
      const left = u.cursor.left;
      const flip = left > u.over.clientWidth / 2;
      tip.style.left = `${flip ? left - tip.offsetWidth - 8 : left + 8}px`;
      tip.style.top = `${Math.max(0, u.valToPos(point.value, "y") - tip.offsetHeight - 6)}px`;
    },
  };
}

const css = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

/** Draws with uPlot in the theme's colours; redraws on resize and when the theme changes. */
export default function TimeSeriesChart({ points, label, height, valueLabel = "" }: Props) {
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
      const tip = tooltip(points, valueLabel.toLowerCase());
      plot = new UPlot(
        {
          width: el.clientWidth,
          height,
          legend: { show: false },
          hooks: { init: [tip.init], setCursor: [tip.setCursor] },
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
  }, [points, label, height, valueLabel]);
  return <div ref={box} aria-hidden style={{ height }} />;
}

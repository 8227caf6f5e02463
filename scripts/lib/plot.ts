// A log-log plot of wall time against a size, as an SVG the benchmarks write beside their tables:
// each series solid, its rate floor (calls answered / 20 per second) dashed in the same colour.

/** One line of the plot. */
export interface Series {
  name: string;
  color: string;
  /** [size, seconds] points, in order of size. */
  points: [number, number][];
  /** [size, seconds] of the rate floor, drawn dashed when it has two points or more. */
  floor?: [number, number][];
}

/** What the plot shows and says. */
export interface Plot {
  title: string;
  /** The line under the title: the conditions of the run. */
  subtitle: string;
  /** What the horizontal axis counts. */
  xLabel: string;
  series: Series[];
}

/** Draws the plot: both axes logarithmic, a legend on the right. */
export function logLogSvg(plot: Plot): string {
  const width = 720;
  const height = 400;
  const pad = { left: 60, right: 150, top: 40, bottom: 50 };
  const ks = [...new Set(plot.series.flatMap((s) => s.points.map(([k]) => k)))];
  const values = plot.series.flatMap((s) => [...s.points, ...(s.floor ?? [])].map(([, v]) => v)).filter((v) => v > 0);
  const [xMin, xMax] = [Math.min(...ks), Math.max(...ks)];
  const [yMin, yMax] = [Math.min(...values) / 1.5, Math.max(...values) * 1.5];
  const x = (k: number) =>
    pad.left +
    ((Math.log(k) - Math.log(xMin)) / (Math.log(xMax) - Math.log(xMin) || 1)) * (width - pad.left - pad.right);
  const y = (s: number) =>
    height -
    pad.bottom -
    ((Math.log(s) - Math.log(yMin)) / (Math.log(yMax) - Math.log(yMin))) * (height - pad.top - pad.bottom);
  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`,
  );
  parts.push(`<rect width="100%" height="100%" fill="white"/>`);
  parts.push(`<text x="${pad.left}" y="14" font-size="13">${plot.title}</text>`);
  parts.push(`<text x="${pad.left}" y="28" font-size="11" fill="#555">${plot.subtitle}</text>`);
  for (const k of ks)
    parts.push(
      `<line x1="${x(k)}" x2="${x(k)}" y1="${pad.top}" y2="${height - pad.bottom}" stroke="#eee"/><text x="${x(k)}" y="${height - pad.bottom + 16}" text-anchor="middle">${k}</text>`,
    );
  for (let tick = 10 ** Math.floor(Math.log10(yMin)); tick <= yMax; tick *= 10) {
    for (const m of [1, 3]) {
      const v = tick * m;
      if (v < yMin || v > yMax) continue;
      parts.push(
        `<line x1="${pad.left}" x2="${width - pad.right}" y1="${y(v)}" y2="${y(v)}" stroke="#eee"/><text x="${pad.left - 6}" y="${y(v) + 4}" text-anchor="end">${Number(v.toPrecision(3))} s</text>`,
      );
    }
  }
  parts.push(
    `<text x="${(pad.left + width - pad.right) / 2}" y="${height - 10}" text-anchor="middle">${plot.xLabel}</text>`,
  );
  for (const [i, series] of plot.series.entries()) {
    const points = series.points.filter(([, s]) => s > 0).map(([k, s]) => `${x(k)},${y(s)}`);
    parts.push(`<polyline fill="none" stroke="${series.color}" stroke-width="2" points="${points.join(" ")}"/>`);
    for (const point of points)
      parts.push(`<circle cx="${point.split(",")[0]}" cy="${point.split(",")[1]}" r="3" fill="${series.color}"/>`);
    const floors = (series.floor ?? []).filter(([, f]) => f > 0);
    if (floors.length > 1)
      parts.push(
        `<polyline fill="none" stroke="${series.color}" stroke-dasharray="4 3" points="${floors.map(([k, f]) => `${x(k)},${y(f)}`).join(" ")}"/>`,
      );
    parts.push(
      `<line x1="${width - pad.right + 15}" x2="${width - pad.right + 35}" y1="${pad.top + 10 + i * 18}" y2="${pad.top + 10 + i * 18}" stroke="${series.color}" stroke-width="2"/><text x="${width - pad.right + 40}" y="${pad.top + 14 + i * 18}">${series.name}</text>`,
    );
  }
  parts.push("</svg>");
  return parts.join("\n") + "\n";
}

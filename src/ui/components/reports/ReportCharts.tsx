// Report charts in SVG with d3 scales and shapes: bars of mean and peak per
// hour, an hour × weekday heat grid, and small multiples of series by hour.
// Numbers also appear as titles, so no value is told by colour alone.

import { extent, max } from 'd3-array';
import { interpolateRgb } from 'd3-interpolate';
import { scaleBand, scaleLinear, scaleSequential } from 'd3-scale';
import { line } from 'd3-shape';
import type { Cell, ReportSummary } from '../../../shared/reports/types.js';

const WEEKDAYS = ['', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const fmt = (v: number, share: boolean) => (share ? `${Math.round(v * 100)} %` : String(Math.round(v * 10) / 10));

export function HourBars({ cells, share, label }: { cells: Array<Cell | null>; share: boolean; label: string }) {
  const w = 320; const h = 120; const pad = 18;
  const x = scaleBand<number>().domain(cells.map((_, i) => i)).range([pad, w - 4]).padding(0.15);
  const top = max(cells, (c) => c?.peak ?? 0) || 1;
  const y = scaleLinear().domain([0, top]).range([h - pad, 4]);
  return (
    <svg className="chart hour-bars" viewBox={`0 0 ${w} ${h}`} role="img" aria-label={label}>
      {cells.map((c, i) => (c ? (
        <g key={i}>
          <rect className="peak" x={x(i)} width={x.bandwidth()} y={y(c.peak)} height={y(0) - y(c.peak)}>
            <title>{`${String(i).padStart(2, '0')}:00 peak ${fmt(c.peak, share)}`}</title>
          </rect>
          <rect className="mean" x={x(i)} width={x.bandwidth()} y={y(c.mean)} height={y(0) - y(c.mean)}>
            <title>{`${String(i).padStart(2, '0')}:00 mean ${fmt(c.mean, share)}`}</title>
          </rect>
        </g>
      ) : null))}
      {[0, 6, 12, 18].map((i) => <text key={i} x={(x(i) ?? 0) + x.bandwidth() / 2} y={h - 4} className="axis">{`${i}h`}</text>)}
      <text x={2} y={12} className="axis">{fmt(top, share)}</text>
    </svg>
  );
}

export function HeatGrid({ grid, hourStart, hourEnd, share, label }: { grid: ReportSummary['grid']; hourStart: number; hourEnd: number; share: boolean; label: string }) {
  const hours = Array.from({ length: Math.max(1, hourEnd - hourStart + 2) }, (_, i) => hourStart - 1 + i).filter((h) => h >= 0 && h < 24);
  const top = max(grid.flat(), (c) => c?.mean ?? 0) || 1;
  const color = scaleSequential(interpolateRgb('#e3f2fd', '#0d47a1')).domain([0, top]);
  const cw = 22; const ch = 16; const left = 32;
  return (
    <svg className="chart heat-grid" viewBox={`0 0 ${left + hours.length * cw} ${8 * ch}`} role="img" aria-label={label}>
      {hours.map((hr, j) => <text key={hr} x={left + j * cw + 2} y={ch - 4} className="axis">{hr}</text>)}
      {[1, 2, 3, 4, 5, 6, 7].map((d) => (
        <g key={d}>
          <text x={0} y={d * ch + ch - 4} className="axis">{WEEKDAYS[d]}</text>
          {hours.map((hr, j) => {
            const c = grid[d]?.[hr] ?? null;
            return (
              <rect key={hr} x={left + j * cw} y={d * ch} width={cw - 1} height={ch - 1} fill={c ? color(c.mean) : '#eeeeee'}>
                <title>{`${WEEKDAYS[d]} ${hr}:00 ${c ? `mean ${fmt(c.mean, share)}, peak ${fmt(c.peak, share)}` : 'no data'}`}</title>
              </rect>
            );
          })}
        </g>
      ))}
    </svg>
  );
}

export function SmallMultiples({ series }: { series: ReportSummary['series'] }) {
  const w = 150; const h = 60;
  const x = scaleLinear().domain([0, 23]).range([4, w - 4]);
  return (
    <div className="small-multiples">
      {series.map((s) => {
        const values = s.byHour.map((v, i) => [i, v] as const).filter((p): p is readonly [number, number] => p[1] !== null);
        const [lo = 0, hi = 1] = extent(values, (p) => p[1]);
        const y = scaleLinear().domain(lo === hi ? [lo - 1, hi + 1] : [lo, hi]).nice().range([h - 4, 10]);
        const path = line<readonly [number, number]>().x((p) => x(p[0])).y((p) => y(p[1]))(values) ?? '';
        return (
          <figure key={s.id}>
            <svg viewBox={`0 0 ${w} ${h}`} role="img" aria-label={`${s.label} by hour`}>
              <path d={path} className="series" />
              <text x={2} y={8} className="axis">{`${y.domain()[1]}`}</text>
              <text x={2} y={h - 1} className="axis">{`${y.domain()[0]}`}</text>
            </svg>
            <figcaption>{s.label}</figcaption>
          </figure>
        );
      })}
    </div>
  );
}

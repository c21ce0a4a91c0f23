// Report charts in SVG with d3 scales and shapes: bars of mean and peak per
// hour and an hour × weekday heat grid (the working hours, and any hour
// outside them with use), and small multiples of series by hour.
// Numbers also appear as titles, so no value is told by colour alone.

import { extent, max } from 'd3-array';
import { interpolateRgb } from 'd3-interpolate';
import { scaleBand, scaleLinear, scaleSequential } from 'd3-scale';
import { line } from 'd3-shape';
import type { Cell, ReportSummary } from '../../../shared/reports/types.js';
import { chartHours, hourRanges } from '../../lib/chartHours.js';

const NO_DATA = '#eeeeee';
const WEEKDAYS = ['', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
// a share above zero that rounds to 0 % is "< 1 %": an hour drawn for its use never reads as none
const fmt = (v: number, share: boolean) => (share ? (v > 0 && v < 0.005 ? '< 1 %' : `${Math.round(v * 100)} %`) : String(Math.round(v * 10) / 10));

export function HourBars({ cells, share, label, hourStart, hourEnd }: { cells: Array<Cell | null>; share: boolean; label: string; hourStart: number; hourEnd: number }) {
  const w = 320; const h = 120; const pad = 18;
  // the working hours, and any hour outside them with use (lib/chartHours.ts)
  const used = (hr: number) => (cells[hr]?.peak ?? 0) > 0;
  const hours = chartHours(hourStart, hourEnd, used);
  const x = scaleBand<number>().domain(hours).range([pad, w - 4]).padding(0.15);
  const top = max(hours, (hr) => cells[hr]?.peak ?? 0) || 1;
  const y = scaleLinear().domain([0, top]).range([h - pad, 4]);
  const working = (hr: number) => hr >= hourStart && hr < hourEnd;
  const workingShown = hours.filter(working);
  const outside = hourRanges(hours.filter((hr) => !working(hr) && used(hr)));
  const gap = (x.step() - x.bandwidth()) / 2;
  // one label an hour while they fit, else every second or third hour
  const every = hours.length <= 12 ? 1 : hours.length <= 18 ? 2 : 3;
  const at = (hr: number) => `${String(hr).padStart(2, '0')}:00`;
  return (
    <figure className="chart-figure">
      <svg className="chart hour-bars" viewBox={`0 0 ${w} ${h}`} role="img" aria-label={label}>
        {workingShown.length ? (
          <rect
            className="working-hours" x={(x(workingShown[0]!) ?? 0) - gap} y={h - pad + 1} height={2}
            width={(x(workingShown[workingShown.length - 1]!) ?? 0) + x.bandwidth() + gap - ((x(workingShown[0]!) ?? 0) - gap)}
          />
        ) : null}
        {hours.map((hr) => {
          const c = cells[hr];
          if (!c) return null;
          const note = working(hr) ? '' : ', outside working hours';
          return (
            <g key={hr} data-hour={hr} className={working(hr) ? undefined : 'outside'}>
              <rect className="peak" x={x(hr)} width={x.bandwidth()} y={y(c.peak)} height={y(0) - y(c.peak)}>
                <title>{`${at(hr)} peak ${fmt(c.peak, share)}${note}`}</title>
              </rect>
              <rect className="mean" x={x(hr)} width={x.bandwidth()} y={y(c.mean)} height={y(0) - y(c.mean)}>
                <title>{`${at(hr)} mean ${fmt(c.mean, share)}${note}`}</title>
              </rect>
            </g>
          );
        })}
        {hours.filter((hr) => hr % every === 0).map((hr) => (
          <text key={hr} x={(x(hr) ?? 0) + x.bandwidth() / 2} y={h - 4} className="axis" textAnchor="middle">{`${hr}h`}</text>
        ))}
        <text x={2} y={12} className="axis">{fmt(top, share)}</text>
      </svg>
      <figcaption>
        <span className="chart-title">{label}</span>
        <ul className="chart-legend" aria-label="Legend">
          <li><span className="swatch mean" aria-hidden="true" />Mean</li>
          <li><span className="swatch peak" aria-hidden="true" />Peak (highest ten minutes)</li>
          <li><span className="swatch working-hours" aria-hidden="true" />{`Working hours ${hourStart}–${hourEnd}`}</li>
          <li className="chart-note">{outside ? `In use outside them too (paler): ${outside}` : 'No use outside them'}</li>
        </ul>
      </figcaption>
    </figure>
  );
}

export function HeatGrid({ grid, hourStart, hourEnd, share, label }: { grid: ReportSummary['grid']; hourStart: number; hourEnd: number; share: boolean; label: string }) {
  // the working hours, and any hour outside them with use on any day (lib/chartHours.ts)
  const hours = chartHours(hourStart, hourEnd, (hr) => grid.some((row) => (row?.[hr]?.peak ?? 0) > 0));
  const top = max(grid.flat(), (c) => c?.mean ?? 0) || 1;
  const color = scaleSequential(interpolateRgb('#e3f2fd', '#0d47a1')).domain([0, top]);
  // a wider day (use outside the working hours) gets narrower columns and a label every second hour, so its
  // labels stay as large as the working hours' once the panel scales the chart to its width
  const wide = hours.length > 13;
  const cw = wide ? 16 : 22; const ch = 16; const left = 32;
  return (
    <figure className="chart-figure">
      <svg className="chart heat-grid" viewBox={`0 0 ${left + hours.length * cw} ${8 * ch}`} role="img" aria-label={label}>
        {hours.map((hr, j) => (!wide || hr % 2 === 0 ? <text key={hr} x={left + j * cw + 2} y={ch - 4} className="axis">{hr}</text> : null))}
        {[1, 2, 3, 4, 5, 6, 7].map((d) => (
          <g key={d}>
            <text x={0} y={d * ch + ch - 4} className="axis">{WEEKDAYS[d]}</text>
            {hours.map((hr, j) => {
              const c = grid[d]?.[hr] ?? null;
              return (
                <rect key={hr} x={left + j * cw} y={d * ch} width={cw - 1} height={ch - 1} fill={c ? color(c.mean) : NO_DATA}>
                  <title>{`${WEEKDAYS[d]} ${hr}:00 ${c ? `mean ${fmt(c.mean, share)}, peak ${fmt(c.peak, share)}` : 'no data'}`}</title>
                </rect>
              );
            })}
          </g>
        ))}
      </svg>
      <figcaption>
        <span className="chart-title">{label}</span>
        <ul className="chart-legend" aria-label="Legend">
          <li>
            <span>{fmt(0, share)}</span>
            <span className="ramp" aria-hidden="true" style={{ background: `linear-gradient(to right, ${color(0)}, ${color(top)})` }} />
            <span>{fmt(top, share)}</span>
          </li>
          <li><span className="swatch" aria-hidden="true" style={{ background: NO_DATA }} />No data</li>
        </ul>
      </figcaption>
    </figure>
  );
}

export function SmallMultiples({ series, hourStart, hourEnd }: { series: ReportSummary['series']; hourStart: number; hourEnd: number }) {
  const w = 150; const h = 64; const bottom = 10;
  const x = scaleLinear().domain([0, 23]).range([30, w - 4]);
  return (
    <figure className="chart-figure">
      <div className="small-multiples">
        {series.map((s) => {
          const values = s.byHour.map((v, i) => [i, v] as const).filter((p): p is readonly [number, number] => p[1] !== null);
          const [lo = 0, hi = 1] = extent(values, (p) => p[1]);
          const y = scaleLinear().domain(lo === hi ? [lo - 1, hi + 1] : [lo, hi]).nice().range([h - bottom, 6]);
          const [d0, d1] = y.domain() as [number, number];
          const path = line<readonly [number, number]>().x((p) => x(p[0])).y((p) => y(p[1]))(values) ?? '';
          // the comfort band, cut to what the chart shows
          const band = s.band ? [Math.max(d0, s.band[0]), Math.min(d1, s.band[1])] as const : null;
          return (
            <figure key={s.id}>
              <svg className="chart" viewBox={`0 0 ${w} ${h}`} role="img" aria-label={`${s.label} by hour${s.band ? `, comfort band ${s.band[0]}–${s.band[1]}` : ''}`}>
                {band && band[1] > band[0] ? <rect className="band" x={x(0)} width={x(23) - x(0)} y={y(band[1])} height={y(band[0]) - y(band[1])} /> : null}
                <rect className="working-hours" x={x(hourStart)} width={x(Math.min(23, hourEnd)) - x(hourStart)} y={h - bottom} height={2} />
                <path d={path} className="series" />
                <text x={28} y={10} className="axis" textAnchor="end">{d1}</text>
                <text x={28} y={h - bottom} className="axis" textAnchor="end">{d0}</text>
                {[0, 6, 12, 18].map((i) => <text key={i} x={x(i)} y={h - 1} className="axis" textAnchor="middle">{`${i}h`}</text>)}
              </svg>
              <figcaption>{s.label}</figcaption>
            </figure>
          );
        })}
      </div>
      <figcaption>
        <span className="chart-title">Time-weighted mean by hour of day, all days of the period</span>
        <ul className="chart-legend" aria-label="Legend">
          <li><span className="swatch series" aria-hidden="true" />Mean of the period</li>
          <li><span className="swatch band" aria-hidden="true" />Comfort band</li>
          <li><span className="swatch working-hours" aria-hidden="true" />{`Working hours ${hourStart}–${hourEnd}`}</li>
        </ul>
      </figcaption>
    </figure>
  );
}

// A report's table (docs/reports.md "The table"): it scrolls in its own region
// of the report panel, never the page. Headers wrap at spaces; the header row
// stays on top while the rows scroll, and the columns that name a row (a desk,
// or a floor and its building) stay at the left while the numbers scroll
// sideways, so a row scrolled to its last column still says what it is.

import { useLayoutEffect, useRef, type CSSProperties } from 'react';
import type { ReportRow } from '../../../shared/reports/types.js';
import { cellText, type Column } from './reportColumns.js';

export interface ReportTableProps {
  columns: readonly Column[];
  rows: readonly ReportRow[];
  /** how many rows the table shows (the CSV has all) */
  shown: number;
  floorName(id: string): string | null;
  timeZone: string;
}

/** How many leading columns name the row: they stay at the left. */
export function namingColumns(columns: readonly Column[]): number {
  const n = columns.findIndex((c) => !c.names);
  return n === -1 ? columns.length : n;
}

/** The CSS variable holding where naming column `i` sticks: the width of the naming columns before it. */
const leftVar = (i: number) => `--report-name-left-${i}`;

export function ReportTable({ columns, rows, shown, floorName, timeZone }: ReportTableProps) {
  const table = useRef<HTMLTableElement>(null);
  const naming = namingColumns(columns);
  useLayoutEffect(() => {
    const el = table.current;
    const head = el?.tHead?.rows[0];
    if (!el || !head || naming < 2 || typeof ResizeObserver !== 'function') return;
    // each naming column after the first sticks where the ones before it end; read once the browser laid them out
    const cells = [...head.cells].slice(0, naming);
    const place = () => {
      let left = 0;
      cells.forEach((cell, i) => {
        el.style.setProperty(leftVar(i), `${left}px`);
        left += cell.getBoundingClientRect().width;
      });
    };
    const observer = new ResizeObserver(place);
    for (const cell of cells.slice(0, -1)) observer.observe(cell);
    return () => observer.disconnect();
  }, [columns, naming]);

  const stick = (i: number): { className?: string; style?: CSSProperties } => {
    if (i >= naming) return {};
    const className = i === naming - 1 ? 'names last-name' : 'names';
    return i === 0 ? { className } : { className, style: { left: `var(${leftVar(i)}, 0px)` } };
  };
  const classOf = (c: Column, i: number) => [stick(i).className, c.numeric ? 'num' : null].filter(Boolean).join(' ') || undefined;

  return (
    <div className="report-table-wrap">
      <table className="report-table" ref={table}>
        <thead>
          <tr>{columns.map((c, i) => <th key={c.header} scope="col" className={classOf(c, i)} style={stick(i).style}>{c.header}</th>)}</tr>
        </thead>
        <tbody>
          {rows.slice(0, shown).map((r) => (
            <tr key={r.id} data-row-id={r.id}>
              {columns.map((c, i) => <td key={c.header} className={classOf(c, i)} style={stick(i).style}>{cellText(c, r, floorName, timeZone)}</td>)}
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length > shown ? <p>{`Showing ${shown} of ${rows.length} rows; the CSV has all.`}</p> : null}
    </div>
  );
}

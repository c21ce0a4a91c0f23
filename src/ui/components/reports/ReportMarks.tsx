// The `report` layer on the floor: each desk, room or environment group of
// the open report drawn in the colour the worker gave it, above the floor's
// assets. A click opens the asset's popup, which shows its report line.

import { memo } from 'react';
import type { ReportMark } from '../../../shared/reports/types.js';
import type { DrawState } from '../../../shared/api.js';
import { useViewSelector } from '../../hooks/useViewSelector.js';
import { sameData } from '../../engine/viewMirror.js';
import { svgY } from '../../lib/viewport.js';
import { useFloorContext } from '../floorContext.js';

/** What a mark draws of the asset: its shape and name, not its live status (which changes far more often). */
function shapeOf(entry: DrawState | undefined) {
  return entry ? { outline: entry.outline, x: entry.x, y: entry.y, width: entry.width, depth: entry.depth, name: entry.name } : null;
}

function MarkImpl({ mark }: { mark: ReportMark }) {
  const { mirror, open } = useFloorContext();
  // a patch brings new arrays even when the outline is the same: compare by content
  const entry = useViewSelector(mirror, mark.assetId, shapeOf, sameData);
  if (!entry) return null;
  const common = {
    className: 'report-mark', fill: mark.color, 'data-asset-id': mark.assetId, 'data-color': mark.color,
    onClick: (event: React.MouseEvent<SVGElement>) => open(mark.assetId, event.currentTarget),
  };
  if (entry.outline && entry.outline.length > 2) {
    return <polygon {...common} points={entry.outline.map(([x, y]) => `${x},${svgY(y)}`).join(' ')}><title>{`${entry.name}: ${mark.label}`}</title></polygon>;
  }
  const w = Math.max(entry.width, 0.8);
  const d = Math.max(entry.depth, 0.8);
  return (
    <rect {...common} x={entry.x - w / 2} y={svgY(entry.y) - d / 2} width={w} height={d} rx={0.15}>
      <title>{`${entry.name}: ${mark.label}`}</title>
    </rect>
  );
}

const Mark = memo(MarkImpl);

export function ReportMarks({ marks }: { marks: ReadonlyMap<string, ReportMark> }) {
  return (
    <g className="report-marks" aria-label="Report layer">
      {[...marks.values()].map((m) => <Mark key={m.assetId} mark={m} />)}
    </g>
  );
}

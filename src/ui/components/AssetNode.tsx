// One drawn asset of the floor viewer, memoized on its entry (DESIGN §4): its
// tile subscribes to the mirror for it, so a live change of this asset
// re-renders this component only. Draw state comes from the worker; this file
// only turns it into SVG.

import { memo, useEffect, useId, useState } from 'react';
import type { DrawState } from '../../shared/api.js';
import type { MapLayer } from '../../shared/constants.js';
import type { AssetKind, StatusKind } from '../../shared/kinds.js';
import { useViewEntry } from '../hooks/useView.js';
import { accessibleName } from '../lib/describe.js';
import {
  AVATAR_R, BUBBLE_HEIGHT, BUBBLE_TAIL, bubbleLine, bubbleWidth, labelBoxOf, labelPoint, labelTransform, MARKER_BODY, nameTurned, shapeFontSize, STATUS_LINE_EM, statusFontSize, THING_LABELS,
} from '../lib/labels.js';
import { fileUrl } from '../lib/imageUrl.js';
import { keepForOffline } from '../lib/offlineImages.js';
import { STATUS_MARK_COLOR, statusMarkShape } from '../lib/statusMark.js';
import { boxOf, svgY, Y_SIGN, type Box } from '../lib/viewport.js';
import { Decoration } from './Decoration.js';
import { useFloorContext } from './floorContext.js';
import { DEFAULT_AVATAR_URL } from './defaultAvatar.js';

const SHAPE_KINDS: ReadonlySet<AssetKind> = new Set(['room', 'zone', 'floor_outline', 'floor_hole', 'shape']);
const NON_INTERACTIVE: ReadonlySet<AssetKind> = new Set(['floor_outline', 'floor_hole']);
export const HEAT_LAYER: MapLayer = 'co-workers-heatmap';

/** Outlined areas (rooms, zones, outlines) are drawn as polygons; desks and lockers as symbols even when outlined. */
export function isShapeEntry(entry: DrawState): boolean {
  return SHAPE_KINDS.has(entry.kind) && !!entry.outline && entry.outline.length > 2;
}

export function shownOn(entry: DrawState, active: ReadonlySet<MapLayer>, ignore?: MapLayer): boolean {
  return entry.layers.some((l) => l !== ignore && active.has(l));
}

export function boxOfEntry(entry: DrawState): Box | null {
  if (entry.outline && entry.outline.length) return boxOf(entry.outline.map(([x, y]) => [x, svgY(y)] as const));
  const r = Math.max(entry.width, entry.depth, 1) * 1.5;
  const y = svgY(entry.y);
  return { minX: entry.x - r, minY: y - r, maxX: entry.x + r, maxY: y + r };
}

// entries are immutable (a change is a new object): their culling box is computed once
const boxes = new WeakMap<DrawState, Box | null>();

/** boxOfEntry, kept per entry object: culling asks for every asset's box after each pan. */
export function cachedBoxOfEntry(entry: DrawState): Box | null {
  let box = boxes.get(entry);
  if (box === undefined) boxes.set(entry, (box = boxOfEntry(entry)));
  return box;
}

/** The box the keyboard focus ring goes around: the drawn body, not the generous culling box. */
export function focusBoxOf(entry: DrawState): Box {
  if (entry.outline && entry.outline.length > 2) return boxOf(entry.outline.map(([x, y]) => [x, svgY(y)] as const))!;
  const r = entry.kind === 'employee' || entry.kind === 'auto_tag' ? 0.75 : Math.max(entry.width || 1.5, entry.depth || 1.5) / 2;
  const y = svgY(entry.y);
  return { minX: entry.x - r, minY: y - r, maxX: entry.x + r, maxY: y + r };
}

function fillOf(entry: DrawState, fallback: string): string {
  if (entry.greyedOut) return '#9e9e9e';
  return entry.color ?? fallback;
}

function points(outline: DrawState['outline']): string {
  return (outline ?? []).map(([x, y]) => `${x},${svgY(y)}`).join(' ');
}

/**
 * The status cue that is not colour (lib/statusMark.ts); hidden by CSS while zoomed out. Memoized on its
 * numbers: a desk whose colour changes but not its kind of status (a replay step, a live reading) keeps its mark.
 */
const StatusMark = memo(function StatusMark({ kind, width, depth, cx = 0, cy = 0 }: { kind: StatusKind; width: number; depth: number; cx?: number; cy?: number }) {
  const shape = statusMarkShape(kind, width, depth, cx, cy);
  if (!shape) return null;
  return (
    <path
      className={`status-mark mark-${kind}`}
      d={shape.d}
      fill="none"
      stroke={STATUS_MARK_COLOR}
      strokeWidth={shape.strokeWidth}
      pointerEvents="none"
      aria-hidden="true"
    />
  );
}, (a, b) => a.kind === b.kind && a.width === b.width && a.depth === b.depth && a.cx === b.cx && a.cy === b.cy);

function ShapeBody({ entry }: { entry: DrawState }) {
  const pts = points(entry.outline);
  const [cx, cy] = labelPoint(entry.outline!);
  const fontSize = shapeFontSize(entry);
  // a zone's name along a narrow zone's length, turned about its box's centre (the label layout's own transform)
  const turned = nameTurned(entry);
  if (entry.kind === 'floor_outline') {
    return <polygon className="floor-outline" points={pts} fill="#ffffff" fillOpacity={0.6} stroke="#37474f" strokeWidth={0.15} />;
  }
  if (entry.kind === 'floor_hole') {
    return <polygon className="floor-hole" points={pts} fill="#eceff1" stroke="#78909c" strokeWidth={0.1} strokeDasharray="0.4 0.3" />;
  }
  const isZone = entry.kind === 'zone';
  return (
    <>
      <polygon
        className={isZone ? 'zone' : 'room'}
        points={pts}
        fill={fillOf(entry, isZone ? '#b0bec5' : '#e0e0e0')}
        fillOpacity={isZone ? 0.35 * entry.alpha : 0.8 * entry.alpha}
        stroke={isZone ? '#546e7a' : '#424242'}
        strokeWidth={isZone ? 0.08 : 0.12}
        strokeDasharray={isZone ? '0.5 0.25' : undefined}
      />
      {entry.label || entry.status ? (
        <text
          x={cx} y={cy} fontSize={fontSize} textAnchor="middle" className="shape-label" pointerEvents="none" data-label-for={entry.id}
          transform={turned ? labelTransform(labelBoxOf(entry)!) ?? undefined : undefined}
        >
          {entry.label ? <tspan x={cx}>{entry.label}</tspan> : null}
          {entry.status ? (
            <tspan x={cx} dy={entry.label ? fontSize * STATUS_LINE_EM : 0} fontSize={statusFontSize(entry, entry.status, fontSize)} className="status-word">
              {entry.status}
            </tspan>
          ) : null}
        </text>
      ) : null}
    </>
  );
}

function Avatar({ entry }: { entry: DrawState }) {
  const { imagePolicy } = useFloorContext();
  const clipId = useId();
  const r = AVATAR_R;
  // the user's picture, where the server keeps it (relative to the CDN); the default one when there is none, when
  // it is not allowed, or when it fails to load (a file removed, offline without a copy): never a broken image
  const wanted = fileUrl(entry.avatarUrl, imagePolicy) ?? DEFAULT_AVATAR_URL;
  const [failed, setFailed] = useState<string | null>(null);
  const href = failed === wanted ? DEFAULT_AVATAR_URL : wanted;
  useEffect(() => {
    void keepForOffline(href);
  }, [href]);
  return (
    <>
      <clipPath id={clipId}>
        <circle cx={0} cy={0} r={r} />
      </clipPath>
      <circle r={r + 0.08} fill={entry.color ?? '#1565c0'} />
      <image
        href={href} x={-r} y={-r} width={r * 2} height={r * 2} clipPath={`url(#${clipId})`} preserveAspectRatio="xMidYMid slice"
        onError={() => { if (href !== DEFAULT_AVATAR_URL) setFailed(href); }}
      />
      <Decoration name={entry.decoration} r={r} />
      <text y={THING_LABELS.employee!.dy} fontSize={THING_LABELS.employee!.fontSize} textAnchor="middle" className="person-label" data-label-for={entry.id}>
        {entry.label ?? entry.name}
      </text>
    </>
  );
}

// the bubble's words and size are the label layout's too (lib/labels.ts): a room's or zone's name keeps clear of it
export { BUBBLE_MAX_CHARS, bubbleLine } from '../lib/labels.js';

function Bubble({ entry }: { entry: DrawState }) {
  const text = bubbleLine(entry.text ?? entry.label ?? entry.name ?? '');
  const width = bubbleWidth(text);
  const h = BUBBLE_HEIGHT;
  const ticket = entry.kind === 'ticket';
  const fill = fillOf(entry, ticket ? '#fff3e0' : '#e3f2fd');
  return (
    <>
      <path
        d={`M0,0 l-0.3,${-BUBBLE_TAIL} h${-width / 2 + 0.3} v${-h} h${width} v${h} h${-width / 2 + 0.3} z`}
        fill={fill}
        stroke={ticket ? '#e65100' : '#1565c0'}
        strokeWidth={0.06}
      />
      <text y={-BUBBLE_TAIL - h / 2 + 0.15} fontSize={0.4} textAnchor="middle" className="bubble-text">
        {ticket ? `⚑ ${text}` : `“${text}”`}
      </text>
    </>
  );
}

const OWN_BODIES: ReadonlySet<AssetKind> = new Set(['employee', 'auto_tag', 'ticket', 'voice', 'sensor', 'portal', 'locker']);

/**
 * Unrotated desk-like things are drawn at their floor coordinates with no
 * transform of their own: in Chromium every transformed SVG group is a paint
 * property node of its own, and 5,000 of them cost more to paint than the
 * desks (docs/bench.md §5).
 */
export function drawsInPlace(entry: DrawState): boolean {
  return !isShapeEntry(entry) && !entry.angle && !OWN_BODIES.has(entry.kind);
}

function ThingBody({ entry }: { entry: DrawState }) {
  const w = entry.width || 1.5;
  const d = entry.depth || 1.5;
  const fill = fillOf(entry, '#bdbdbd');
  if (entry.kind === 'auto_tag') {
    return (
      <>
        <rect x={-MARKER_BODY.w / 2} y={-MARKER_BODY.h / 2} width={MARKER_BODY.w} height={MARKER_BODY.h} rx={0.15} fill={fill} stroke="#37474f" strokeWidth={0.05} />
        <circle cx={-0.25} r={0.08} fill="#37474f" />
        <text y={THING_LABELS.auto_tag!.dy} fontSize={THING_LABELS.auto_tag!.fontSize} textAnchor="middle" className="person-label" data-label-for={entry.id}>
          {entry.label ?? entry.name}
        </text>
      </>
    );
  }
  switch (entry.kind) {
    case 'employee':
      return <Avatar entry={entry} />;
    case 'ticket':
    case 'voice':
      return <Bubble entry={entry} />;
    case 'sensor':
      return (
        <>
          <circle r={0.35} fill={fill} stroke="#263238" strokeWidth={0.05} />
          {entry.text ?? entry.label ? (
            <text y={THING_LABELS.sensor!.dy} fontSize={THING_LABELS.sensor!.fontSize} textAnchor="middle" className="sensor-label" data-label-for={entry.id}>
              {entry.text ?? entry.label}
            </text>
          ) : null}
        </>
      );
    case 'portal':
      return (
        <>
          <rect x={-0.5} y={-0.5} width={1} height={1} transform="rotate(45)" fill={fill} stroke="#4e342e" strokeWidth={0.06} />
          <text y={0.2} fontSize={0.6} textAnchor="middle" aria-hidden="true">⇅</text>
        </>
      );
    case 'locker':
      return (
        <>
          <rect x={-w / 4} y={-d / 4} width={w / 2} height={d / 2} fill={fill} stroke="#3e2723" strokeWidth={0.05} />
          <text y={0.15} fontSize={0.4} textAnchor="middle" aria-hidden="true">L</text>
        </>
      );
    default: {
      if (!entry.angle) {
        // drawn in place (see drawsInPlace): no transform node per desk; square
        // corners, as rounded ones cost a third of the pan frame rate (docs/bench.md §5)
        const [cx, cy] = [entry.x, svgY(entry.y)];
        return (
          <>
            <rect x={cx - w / 2} y={cy - d / 2} width={w} height={d} fill={fill} stroke="#37474f" strokeWidth={0.05} />
            <StatusMark kind={entry.statusKind} width={w} depth={d} cx={cx} cy={cy} />
          </>
        );
      }
      return (
        <g transform={`rotate(${Y_SIGN * entry.angle})`}>
          <rect x={-w / 2} y={-d / 2} width={w} height={d} fill={fill} stroke="#37474f" strokeWidth={0.05} />
          <StatusMark kind={entry.statusKind} width={w} depth={d} />
        </g>
      );
    }
  }
}

/** The ring around the asset whose popup is open (not a room's or zone's), map units: its radius and stroke. */
export const HIGHLIGHT_RING_R = 1.4;
const HIGHLIGHT_RING_STROKE = 0.15;
/** how far the ring reaches from the asset's centre, map units: its popup keeps clear of it (PopupLayer.tsx) */
export const HIGHLIGHT_RING_REACH = HIGHLIGHT_RING_R + HIGHLIGHT_RING_STROKE / 2;

export interface AssetNodeProps {
  /** the mirror's entry: the same object until this asset changes, so the memo skips the rest */
  entry: DrawState;
  highlighted: boolean;
  /** whether this asset is the map's one tab stop (roving tabindex): the map is one stop in the page's tab order */
  tabStop: boolean;
  /**
   * a picture of the asset drawn above the others (FloorSvg RaisedAsset): hidden from assistive technology, not
   * focusable, named by `data-raised-for` rather than `data-asset-id` and classed `asset-copy` rather than `asset`,
   * so the asset itself is still one element
   */
  copy?: boolean;
}

/**
 * One drawn asset. It reads nothing itself: its tile (FloorSvg.tsx) holds the
 * one subscription for its 16 assets and passes the entry, so mounting a floor
 * runs no effect per asset.
 */
function AssetNodeImpl({ entry, highlighted, tabStop, copy = false }: AssetNodeProps) {
  const id = entry.id;
  const isShape = isShapeEntry(entry);
  const inPlace = drawsInPlace(entry);
  // where centre-relative extras (missing symbol, highlight ring) go
  const [ox, oy] = inPlace ? [entry.x, svgY(entry.y)] : [0, 0];
  const interactive = !NON_INTERACTIVE.has(entry.kind);
  const name = accessibleName(entry);
  return (
    <g
      className={`${copy ? 'asset-copy' : 'asset'} asset-${entry.kind}${highlighted ? ' highlighted' : ''}${entry.missingSymbol ? ' missing' : ''}${entry.unpublished || entry.hiddenBy ? ' unpublished' : ''}`}
      data-asset-id={copy ? undefined : id}
      data-raised-for={copy ? id : undefined}
      data-kind={entry.kind}
      data-status-kind={entry.statusKind}
      data-status={entry.status ?? undefined}
      data-color={entry.color ?? undefined}
      opacity={entry.alpha}
      transform={isShape || inPlace ? undefined : `translate(${entry.x} ${svgY(entry.y)})`}
      role={copy ? undefined : interactive ? 'button' : 'img'}
      tabIndex={!copy && interactive ? (tabStop ? 0 : -1) : undefined}
      aria-label={copy ? undefined : name}
      aria-hidden={copy ? true : undefined}
    >
      {isShape ? <ShapeBody entry={entry} /> : <ThingBody entry={entry} />}
      {entry.missingSymbol ? (
        <text x={ox} y={oy + (isShape ? 0 : 0.25)} fontSize={0.8} textAnchor="middle" className="missing-symbol">?</text>
      ) : null}
      {highlighted && !isShape ? <circle cx={ox} cy={oy} r={HIGHLIGHT_RING_R} className="highlight-ring" fill="none" stroke="#ff1744" strokeWidth={HIGHLIGHT_RING_STROKE} /> : null}
    </g>
  );
}

/**
 * Compared field by field: a floor's step re-renders its changed tiles, whose unchanged assets are skipped here
 * without React's shallow compare building two key lists per asset (issue 14: a replay step's allocation).
 */
export const AssetNode = memo(AssetNodeImpl, (a, b) =>
  a.entry === b.entry && a.highlighted === b.highlighted && a.tabStop === b.tabStop && a.copy === b.copy);

function HeatNodeImpl({ id }: { id: string }) {
  const { mirror } = useFloorContext();
  const entry = useViewEntry(mirror, id);
  if (!entry || typeof entry.heat !== 'number' || entry.heat <= 0) return null;
  return (
    <circle
      className="heat"
      cx={entry.x}
      cy={svgY(entry.y)}
      r={3}
      fill="url(#heat-gradient)"
      opacity={Math.min(1, entry.heat)}
      aria-hidden="true"
      pointerEvents="none"
    />
  );
}

/** A co-worker's contribution to the heatmap, drawn under everything else. */
export const HeatNode = memo(HeatNodeImpl);

// Arrow-key movement between the assets on the map (the map is one tab stop
// with a roving tabindex, docs/ui.md): from the focused asset, the nearest one
// in the arrow's direction, preferring those straight ahead over those off
// to the side.

export type Direction = 'left' | 'right' | 'up' | 'down';

export interface NavPoint {
  id: string;
  /** screen position, px */
  x: number;
  y: number;
}

const ARROWS: Record<string, Direction> = { ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up', ArrowDown: 'down' };

export function directionOfKey(key: string): Direction | null {
  return ARROWS[key] ?? null;
}

/** Weight of the sideways distance against the distance ahead. */
const SIDEWAYS_WEIGHT = 2;

/**
 * The nearest candidate in `direction` from `from`: only those ahead (within a
 * 45° half-cone widened to the whole half-plane when the cone is empty),
 * scored by the distance ahead plus twice the sideways distance. Null when
 * nothing lies that way.
 */
export function nearestInDirection(from: NavPoint, candidates: readonly NavPoint[], direction: Direction): NavPoint | null {
  const scored = candidates
    .filter((c) => c.id !== from.id)
    .map((c) => {
      const dx = c.x - from.x;
      const dy = c.y - from.y;
      const ahead = direction === 'right' ? dx : direction === 'left' ? -dx : direction === 'down' ? dy : -dy;
      const side = Math.abs(direction === 'left' || direction === 'right' ? dy : dx);
      return { c, ahead, side };
    })
    .filter((s) => s.ahead > 0.5);
  const cone = scored.filter((s) => s.side <= s.ahead);
  const pool = cone.length ? cone : scored;
  let best: { c: NavPoint; score: number } | null = null;
  for (const s of pool) {
    const score = s.ahead + SIDEWAYS_WEIGHT * s.side;
    if (!best || score < best.score) best = { c: s.c, score };
  }
  return best?.c ?? null;
}

/** The candidate nearest to a point (where the roving focus starts). */
export function nearestTo(x: number, y: number, candidates: readonly NavPoint[]): NavPoint | null {
  let best: NavPoint | null = null;
  let d = Infinity;
  for (const c of candidates) {
    const e = Math.hypot(c.x - x, c.y - y);
    if (e < d) {
      d = e;
      best = c;
    }
  }
  return best;
}

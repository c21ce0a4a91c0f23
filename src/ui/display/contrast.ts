// Text on the room's status colour must be readable from three metres: pick
// black or white, whichever contrasts more (WCAG relative luminance), with
// d3-color parsing whatever css colour the configuration holds.

import { rgb } from 'd3-color';

function luminance(css: string): number | null {
  const c = rgb(css);
  if (!c || Number.isNaN(c.r)) return null;
  const channel = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
}

export function contrastRatio(a: number, b: number): number {
  const [hi, lo] = a > b ? [a, b] : [b, a];
  return (hi + 0.05) / (lo + 0.05);
}

/** '#000' or '#fff' for text on `background`, the one of higher contrast. */
export function textColorOn(background: string): '#000' | '#fff' {
  const l = luminance(background);
  if (l === null) return '#000';
  return contrastRatio(l, 1) >= contrastRatio(l, 0) ? '#fff' : '#000';
}

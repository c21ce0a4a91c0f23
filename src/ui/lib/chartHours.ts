// Which hours of the day a report chart draws. A facility manager reads a chart by hour for the working
// hours (spec §9: 7 to 18); drawn over the whole day, more than half of the chart was the empty night
// and the working hours' bars half as wide. The chart keeps to the working hours, but an hour outside them with
// any use is never left out: the chart widens to take it in (docs/reports.md "Charts by hour").

/**
 * The hours to draw, in order: `hourStart ≤ h < hourEnd`, widened to the earliest and the latest hour
 * `used` says had any use, so the axis runs without a gap. Working hours that are no range (an end not
 * after the start) draw the whole day.
 */
export function chartHours(hourStart: number, hourEnd: number, used: (hour: number) => boolean): number[] {
  const start = Math.max(0, Math.min(24, Math.floor(hourStart)));
  const end = Math.max(0, Math.min(24, Math.ceil(hourEnd)));
  if (end <= start) return Array.from({ length: 24 }, (_, h) => h);
  let first = start;
  let last = end - 1;
  for (let h = 0; h < 24; h += 1) {
    if (!used(h)) continue;
    first = Math.min(first, h);
    last = Math.max(last, h);
  }
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

/** Hours as ranges for people: [5, 6, 18, 20] → "5–7, 18–19, 20–21"; empty for none. */
export function hourRanges(hours: number[]): string {
  const runs: Array<[number, number]> = [];
  for (const h of [...hours].sort((a, b) => a - b)) {
    const run = runs[runs.length - 1];
    if (run && run[1] === h) run[1] = h + 1;
    else runs.push([h, h + 1]);
  }
  return runs.map(([a, b]) => `${a}–${b}`).join(', ');
}

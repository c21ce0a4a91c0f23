// Where the keyboard's marker is, in words (lib/placeWords.ts): the room and
// zone it is in, else the nearest named place that stays put.

import { describe, expect, it } from 'vitest';
import { placeWords } from '../../src/ui/lib/placeWords.js';
import { draw, room } from './fakeEngine.js';

const square = (x: number, y: number, s: number): Array<[number, number]> => [[x, y], [x + s, y], [x + s, y + s], [x, y + s]];
const outline = draw('outline', { kind: 'floor_outline', name: '', outline: square(0, 0, 40) });
const bigRoom = room('r1', { name: 'Aalto', outline: square(0, 0, 10) });
const innerRoom = room('r2', { name: 'Phone booth', outline: square(2, 2, 2) });
const zone = draw('z1', { kind: 'zone', name: '', label: 'Collaboration', outline: square(0, 0, 20) });
const desk = draw('d1', { kind: 'desk', name: 'D12', x: 30, y: 30, width: 1.6, depth: 0.8 });
const person = draw('p1', { kind: 'employee', name: 'Aino', x: 25, y: 25 });

describe('placeWords', () => {
  it('names the smallest room and zone the point is in', () => {
    expect(placeWords({ x: 3, y: 3 }, [outline, bigRoom, innerRoom, zone, desk])).toBe('in room Phone booth, zone Collaboration');
    expect(placeWords({ x: 8, y: 8 }, [outline, bigRoom, innerRoom])).toBe('in room Aalto');
    expect(placeWords({ x: 15, y: 15 }, [outline, bigRoom, zone])).toBe('in zone Collaboration');
  });

  it('says how far the nearest named place is, by places that stay put, not people', () => {
    expect(placeWords({ x: 26, y: 26 }, [outline, bigRoom, desk, person])).toBe('6 m from desk D12');
    expect(placeWords({ x: 30.2, y: 30 }, [outline, desk])).toBe('at desk D12');
    // a name that says its kind is said once
    expect(placeWords({ x: 30.2, y: 30 }, [outline, { ...desk, name: 'Desk 7' }])).toBe('at Desk 7');
    // to a room's edge, not its middle
    expect(placeWords({ x: 12, y: 5 }, [outline, bigRoom, desk])).toBe('2 m from room Aalto');
  });

  it('tells a point outside the floor, or away from anything named', () => {
    expect(placeWords({ x: -5, y: 3 }, [outline, bigRoom])).toBe('outside the floor');
    expect(placeWords({ x: 3, y: 3 }, [outline, person])).toBe('on the floor, away from named places');
  });
});

import { describe, expect, it } from 'vitest';
import { displayPath, parseDisplayRoute } from '../../src/ui/display/displayRoute.js';
import { textColorOn } from '../../src/ui/display/contrast.js';

describe('parseDisplayRoute', () => {
  it('reads the room from the path and the location from the query', () => {
    expect(parseDisplayRoute('/display/room/42', '?location=7')).toEqual({ roomId: '42', locationId: '7' });
    expect(parseDisplayRoute('/display/room/r-1/', '')).toEqual({ roomId: 'r-1', locationId: null });
  });

  it('is not a display for other paths or malformed ids', () => {
    expect(parseDisplayRoute('/', '')).toBeNull();
    expect(parseDisplayRoute('/display/room/', '')).toBeNull();
    expect(parseDisplayRoute('/display/room/a%2Fb', '')).toBeNull();
    expect(parseDisplayRoute('/display/room/%E0%A4%A', '')).toBeNull();
  });

  it('ignores a malformed location and survives hostile queries under the qs limits', () => {
    expect(parseDisplayRoute('/display/room/1', '?location[a][b]=1')!.locationId).toBeNull();
    const hostile = `?${Array.from({ length: 5000 }, (_, i) => `p${i}=1`).join('&')}&location=3`;
    expect(parseDisplayRoute('/display/room/1', hostile)).toEqual({ roomId: '1', locationId: null });
  });

  it('writes the path it reads', () => {
    const route = { roomId: '42', locationId: '7' };
    const path = displayPath(route);
    const url = new URL(path, 'http://x');
    expect(parseDisplayRoute(url.pathname, url.search)).toEqual(route);
  });
});

describe('textColorOn', () => {
  it('picks the text colour of higher contrast on the room status colours', () => {
    expect(textColorOn('#43a047')).toBe('#000');
    expect(textColorOn('#fb8c00')).toBe('#000');
    expect(textColorOn('#8e24aa')).toBe('#fff');
    expect(textColorOn('#1a237e')).toBe('#fff');
    expect(textColorOn('not a colour')).toBe('#000');
  });
});

// The page's last moments heard in one place (src/ui/lib/onPageHidden.ts), the
// engine's save and the painted floor's alike: pagehide, and visibilitychange
// when it is to hidden, each call back; the page shown again does not; once
// unsubscribed, neither does.

import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { onPageHidden } from '../../src/ui/lib/onPageHidden.js';

let visibility: MockInstance<() => DocumentVisibilityState>;
beforeEach(() => {
  visibility = vi.spyOn(document, 'visibilityState', 'get');
});
afterEach(() => { visibility.mockRestore(); });

const hide = () => {
  visibility.mockReturnValue('hidden');
  document.dispatchEvent(new Event('visibilitychange'));
};
const show = () => {
  visibility.mockReturnValue('visible');
  document.dispatchEvent(new Event('visibilitychange'));
};
const leave = () => window.dispatchEvent(new Event('pagehide'));

describe('onPageHidden', () => {
  it('calls back when the page is hidden and when it goes, not when it shows again', () => {
    const called = vi.fn();
    const stop = onPageHidden(called);
    hide();
    expect(called).toHaveBeenCalledTimes(1);
    show();
    expect(called).toHaveBeenCalledTimes(1);
    leave();
    expect(called).toHaveBeenCalledTimes(2);
    stop();
  });

  it('calls back no more once unsubscribed, and leaves other listeners hearing', () => {
    const stopped = vi.fn();
    const still = vi.fn();
    const stop = onPageHidden(stopped);
    const stopOther = onPageHidden(still);
    stop();
    hide();
    leave();
    expect(stopped).not.toHaveBeenCalled();
    expect(still).toHaveBeenCalledTimes(2);
    stopOther();
  });
});

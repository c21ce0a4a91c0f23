// The page's last reliable moments, heard in one place: pagehide (a tab closed, a navigation away, the
// back-forward cache) and visibilitychange to hidden (a tab switched away from, a phone's app switcher, which
// may end in a kill without pagehide). Both can fire for one leaving, so whoever listens makes a repeat cheap.

/** Calls `callback` whenever the page is hidden or goes; answers the unsubscribe. */
export function onPageHidden(callback: () => void): () => void {
  const hidden = () => {
    if (document.visibilityState === 'hidden') callback();
  };
  document.addEventListener('visibilitychange', hidden);
  window.addEventListener('pagehide', callback);
  return () => {
    document.removeEventListener('visibilitychange', hidden);
    window.removeEventListener('pagehide', callback);
  };
}

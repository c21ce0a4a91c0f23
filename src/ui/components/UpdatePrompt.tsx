// "A new version is available": shown when the service worker has installed a
// newer build of the viewer; Reload switches to it, Later keeps this one.

import { useSyncExternalStore } from 'react';
import { appUpdate as defaultUpdate, type AppUpdate } from '../lib/appUpdate.js';

export function UpdatePrompt({ update = defaultUpdate }: { update?: AppUpdate }) {
  const waiting = useSyncExternalStore(update.subscribe, update.waiting, update.waiting);
  if (!waiting) return null;
  return (
    <div className="update-prompt" role="alert">
      <span>A new version of Storey is available.</span>
      <button type="button" onClick={() => void update.apply()}>
        Reload
      </button>
      <button type="button" className="secondary" onClick={() => update.dismiss()}>
        Later
      </button>
    </div>
  );
}

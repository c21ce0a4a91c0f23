// What every asset of the floor viewer shares and that does not change per
// asset: the mirror, the cull store, the image policy, the roving focus and
// the open action.
// Kept in a context so the memoized tiles of assets take only their keys as props.

import { createContext, useContext } from 'react';
import type { DrawState, FloorViewMeta } from '../../shared/api.js';
import type { ReportMark } from '../../shared/reports/types.js';
import type { ViewMirror } from '../engine/viewMirror.js';
import type { CullStore } from '../lib/cullStore.js';
import type { ImageUrlPolicy } from '../lib/imageUrl.js';
import type { RovingStore } from '../lib/rovingFocus.js';

export interface FloorContextValue {
  mirror: ViewMirror<DrawState, FloorViewMeta>;
  cull: CullStore;
  imagePolicy: ImageUrlPolicy;
  /** which asset is the map's tab stop, and which has keyboard focus */
  roving: RovingStore;
  /** opens the popup of an asset; the element anchors it */
  open(id: string, anchor: Element | null): void;
  /** the `report` layer's marks by asset id, when the layer is on and a report is done */
  reportMarks?: ReadonlyMap<string, ReportMark> | null;
}

export const FloorContext = createContext<FloorContextValue | null>(null);

export function useFloorContext(): FloorContextValue {
  const value = useContext(FloorContext);
  if (!value) throw new Error('useFloorContext needs a <FloorContext.Provider>');
  return value;
}

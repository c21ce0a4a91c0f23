// The engine's code loaded on first use (lazyModule.ts): directions
// (graphology), the finder's index (MiniSearch) and reports, each a chunk of
// its own that the worker's start-up does not fetch, compile or run.

import { lazyModule, type LazyModule, type LazyModuleOptions } from './lazyModule.js';
import type { ReportsModule } from './reports/lazyReports.js';
import { loadReports } from './reports/lazyReports.js';
import type { RoutingModule } from './views/routeView.js';
import { loadRouting } from './views/routeView.js';

/** The finder's index (MiniSearch). */
export type SearchModule = typeof import('./search/searchIndex.js');
const loadSearch = (): Promise<SearchModule> => import('./search/searchIndex.js');

/** How each part's code arrives (tests give loaders that fail). */
export interface ModuleLoaders {
  routing(): Promise<RoutingModule>;
  search(): Promise<SearchModule>;
  reports(): Promise<ReportsModule>;
}

/** The code loaded on first use, and whether it has come. */
export interface EngineModules {
  routing: LazyModule<RoutingModule>;
  search: LazyModule<SearchModule>;
  reports: LazyModule<ReportsModule>;
  /** settles once no load is under way */
  settled(): Promise<void>;
}

export function createEngineModules(loaders: Partial<ModuleLoaders> = {}, options: LazyModuleOptions): EngineModules {
  const routing = lazyModule('Directions', loaders.routing ?? loadRouting, options);
  const search = lazyModule('Search', loaders.search ?? loadSearch, options);
  const reports = lazyModule('Reports', loaders.reports ?? loadReports, options);
  return {
    routing, search, reports,
    settled: async () => { await Promise.all([routing.settled(), search.settled(), reports.settled()]); },
  };
}

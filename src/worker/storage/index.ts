// The storage area's public surface for the engine: the port, its in-memory
// implementation and the throttled persister. idbStorage is imported only by
// the worker entry, so tests and Node never load idb unless they ask for it.

export * from './storagePort.js';
export { createMemoryStorage, type MemoryStorage } from './memoryStorage.js';
export {
  createPersister, PERSIST_THROTTLE_MS, PERSIST_RETRY_MIN_MS, PERSIST_RETRY_MAX_MS,
  type Persister, type PersisterOptions, type PersistSource,
} from './persister.js';

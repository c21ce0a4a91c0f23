// Every user- or developer-visible message of spec §5 and §8, verbatim.
// Tests assert these strings; change them only if the spec changes.

export const MSG = {
  ONLY_ONE_CONNECTION_ATTEMPT: 'Only one connection attempt can be ongoing!',
  CURRENT_USER_NOT_SET: 'Current user is not set',
  NO_PERMISSIONS: 'No permissions',
  NO_ROLE: 'No role',
  COULD_NOT_SYNC_TIME: 'Could not sync time with server.',
  PROBLEM_CONNECTING: 'Problem connecting to server.',
  FAILED_RECONNECT_ATTEMPT: 'Failed reconnect attempt.',
  FAILED_TRYING_TO_LOAD: 'Failed trying to load.',
  UNINITIALIZED_STREAM: 'UNINITIALIZED STREAM RECEIVING DATA!',
  RECONNECTING_STREAM_INVALID: 'Reconnecting due to stream invalidity.',
  NO_SOURCE_SUBSCRIPTION: 'Object has no source subscription!',
  NO_RESERVATIONS: 'No reservations',
  NEXT_PREFIX: 'Next:',
  ZONE_GENERIC_LABEL: 'Unknown zone',
  ZONE_CHILLING_LABEL: 'Chilling out',
} as const;

export type ErrorLevel = 'error' | 'warning' | 'info';
export type ErrorType = 'network' | 'validation' | 'storage' | 'stream' | 'auth';

/** What the engine posts to the UI's error feed (DESIGN §6). */
export interface PostedError {
  level: ErrorLevel;
  type: ErrorType;
  message: string;
  /** corrected-clock ms */
  time: number;
}

// The engine's public surface as the UI sees it through Comlink (DESIGN §4).
// Views are keyed records: one snapshot, then batched patches that carry only
// what changed. Actions return typed results instead of throwing, because
// Comlink passes only message and name of thrown errors (DESIGN §6).

// The types live in api/ by part (views, their entries, actions); this file is their one entry (STYLE.md)
// and holds the API itself.

import type { ReportRequest } from './reports/types.js';
import type { Id, ReservationEvent, Settings } from './types.js';
import type { ViewListener, ViewSpec } from './api/views.js';
import type { ApiResult, AssetChanges, BookRoomRequest, EngineInit, PasswordLink, SignInOptions, SignUpConfirmed, TicketRequest } from './api/actions.js';

export * from './api/views.js';
export * from './api/entries.js';
export * from './api/actions.js';

export interface EngineApi {
  init(options: EngineInit): Promise<void>;
  subscribe(spec: ViewSpec, listener: ViewListener): Promise<number>;
  unsubscribe(subscriptionId: number): Promise<void>;

  signIn(email: string, password: string, options?: SignInOptions): Promise<ApiResult<Settings>>;
  signInWithIdToken(idToken: string): Promise<ApiResult<Settings>>;
  signUp(email: string): Promise<ApiResult<unknown>>;
  authUri(email: string): Promise<ApiResult<{ uri: string | null }>>;
  recoverPassword(email: string): Promise<ApiResult<unknown>>;
  /** finishes a signup with the code of its mail and the new account's password; then sign in as usual */
  confirmSignUp(code: string, password: string): Promise<ApiResult<SignUpConfirmed>>;
  /** sets a new password with the code of a reset or invite link; every session of that account ends */
  setPasswordWithCode(link: PasswordLink, password: string): Promise<ApiResult<void>>;
  /** resumes the stored session, if any; resolves to whether one was found */
  resume(): Promise<boolean>;
  signOut(): Promise<void>;

  // Navigation intents: the worker owns the choice and its defaults.
  /** loads the organization (stopping the previous one's subscriptions); resolves when loaded or superseded */
  selectOrganization(organizationId: Id): Promise<ApiResult<void>>;
  /** loads a location of the loaded organization; resolves when loaded or superseded */
  selectLocation(locationId: Id): Promise<ApiResult<void>>;
  /** opens the building's default floor */
  selectBuilding(buildingId: Id): Promise<void>;
  selectFloor(floorId: Id): Promise<void>;

  // Actions, named by intent; payloads are built and checked in the worker.
  bookRoom(request: BookRoomRequest): Promise<ApiResult<ReservationEvent>>;
  cancelBooking(roomId: Id, bookingRef: string): Promise<ApiResult<unknown>>;
  createTicket(request: TicketRequest): Promise<ApiResult<unknown>>;
  closeTicket(ticketId: Id): Promise<ApiResult<unknown>>;
  vote(assetId: Id, direction: 1 | -1 | 0): Promise<ApiResult<unknown>>;
  updateAsset(assetId: Id, changes: AssetChanges): Promise<ApiResult<unknown>>;
  setManualLocation(location: { floorId: Id; x: number; y: number } | null): Promise<ApiResult<unknown>>;
  markNotificationRead(notificationId: Id): Promise<ApiResult<unknown>>;

  /** stops paging the report of this request (its view shows 'cancelled') */
  cancelReport(request: ReportRequest): Promise<void>;
  /** runs a cancelled or failed report of this request again; its open views follow */
  rerunReport(request: ReportRequest): Promise<void>;
  /** moves the playback of a floor and day to an instant (clamped to the day) */
  setPlaybackTime(floorId: Id, day: string, time: number): Promise<void>;

  /**
   * writes what waits for the persistence throttle (the location, the shown floor's view) now: the page is
   * hidden or closing, and may not come back. Nothing is written when nothing changed since the last save.
   */
  saveNow(): Promise<void>;

  /** the browser went online or offline (forwarded by the worker entry) */
  setOnline(online: boolean): Promise<void>;
}

/**
 * The key of the one message the engine worker sends outside Comlink: its engine's code could not be
 * loaded, so it will never answer (the page says the app cannot start; docs/ui.md "If the app cannot start").
 */
export const ENGINE_UNAVAILABLE = 'storeyEngineUnavailable';

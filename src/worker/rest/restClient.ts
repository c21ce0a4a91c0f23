// Typed client of every call of spec §7 (shapes from src/shared/rest.ts). Each
// method resolves with the parsed body or throws HttpError; the sync layer
// uses `load` to get the stream position an initial load reflects.

import {
  MEASUREMENTS_INGEST_API_VERSION, queryString, restPaths, SETTINGS_API_VERSION,
  type AcceptedResponse, type AssetsQuery, type AuthUriResponse, type BookingRequest, type BookingResponse,
  type CancelBookingRequest, type CreateAssetRequest, type CreateExternalObjectRequest,
  type CreateLocationRequest, type CreateNotificationRequest, type CreateOrganizationRequest,
  type CreateSensorRequest, type CreateUserRequest, type CurrentTimeResponse, type ExternalObjectsQuery,
  type ImageResponse, type IngestMeasurementsRequest, type IngestMeasurementsResponse, type InviteUserRequest,
  type InviteUserResponse, type LoginResponse, type MeasurementsQuery, type MeasurementsResponse,
  type PusherAuthRequest, type PusherAuthResponse, type SensorsQuery, type SetPasswordRequest,
  type SignupConfirmRequest, type SignupConfirmResponse,
  type UpdateAssetRequest, type UpdateExternalObjectRequest, type UpdateLocationRequest,
  type UpdateNotificationRequest, type UpdateOrganizationRequest, type UpdateSensorRequest,
  type UpdateUserRequest, type VoteResponse, type WireAsset, type WireExternalObject, type WireLocation,
  type WireNotification, type WireOrganization, type WireSensor, type WireUser,
} from '../../shared/rest.js';
import type { Id, Settings } from '../../shared/types.js';
import type { LoadProgress } from '../../shared/api.js';
import { assetUpdatePayload as sharedAssetUpdatePayload } from '../../shared/assetUpdate.js';
import { createHttp, type Http, type HttpOptions, type HttpResult } from './http.js';
import { fetchAllMeasurements, type MeasurementRange } from './measurements.js';

export type RestClientOptions = HttpOptions;
export type ImageBody = Blob | ArrayBuffer | Uint8Array;

const p = restPaths;

/** `?a=1&b=2&b=3` through qs (arrays repeat their key, spec §7), or '' (one home: src/shared/rest.ts queryString) */
export function query(params: object | undefined): string {
  return params ? queryString(params as Parameters<typeof queryString>[0]) : '';
}

export function createRestClient(options: RestClientOptions) {
  const http: Http = createHttp(options);
  const get = async <T>(path: string): Promise<T> => (await http.request<T>('GET', path)).data;
  const del = async (path: string): Promise<void> => { await http.request('DELETE', path); };
  const json = async <T>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body: unknown, version?: number): Promise<T> =>
    (await http.request<T>(method, path, { body: { json: body }, version })).data;
  const form = async <T>(path: string, body: Record<string, string>): Promise<T> =>
    (await http.request<T>('POST', path, { body: { form: body } })).data;
  const blob = async <T>(path: string, body: ImageBody, contentType?: string): Promise<T> =>
    (await http.request<T>('PUT', path, { body: { blob: body, contentType } })).data;

  const client = {
    baseUrl: http.baseUrl,
    /** GET with the stream position of the response (initial loads, docs/protocol.md §5) */
    load: <T>(path: string, signal?: AbortSignal): Promise<HttpResult<T>> => http.request<T>('GET', path, { signal }),

    // accounts
    /** `display`: a room display signing in once (its token is kept alive by use; docs/security.md) */
    login: (email: string, password: string, display = false) =>
      form<LoginResponse>(p.login(), display ? { email, password, client: 'display' } : { email, password }),
    /** ends this token's session on the server: the token and its live connections stop working */
    logout: async () => { await http.request('POST', p.logout()); },
    openIdLogin: (idToken: string) => form<LoginResponse>(p.openidLogin(), { id_token: idToken }),
    signup: (email: string) => form<AcceptedResponse>(p.signup(), { email }),
    /** the signup mail's code and the new password: creates the account */
    confirmSignup: (body: SignupConfirmRequest) => json<SignupConfirmResponse>('POST', p.signupConfirm(), body),
    authUri: (email: string) => get<AuthUriResponse>(p.authUri(email)),
    recoverPassword: (email: string) => form<AcceptedResponse>(p.recoverPassword(), { email }),
    currentTime: async (signal?: AbortSignal) => (await http.request<CurrentTimeResponse>('GET', p.currentTime(), { signal })).data,
    settings: async (signal?: AbortSignal) =>
      (await http.request<Settings>('GET', p.settings(), { version: SETTINGS_API_VERSION, credentials: true, signal })).data,

    // notifications
    notifications: () => get<WireNotification[]>(p.notifications()),
    createNotification: (body: CreateNotificationRequest) => json<WireNotification>('POST', p.notifications(), body),
    notification: (id: Id) => get<WireNotification>(p.notification(id)),
    updateNotification: (id: Id, body: UpdateNotificationRequest) => json<WireNotification>('PATCH', p.notification(id), body),
    deleteNotification: (id: Id) => del(p.notification(id)),

    // organizations and locations
    organizations: () => get<WireOrganization[]>(p.organizations()),
    createOrganization: (body: CreateOrganizationRequest) => json<WireOrganization>('POST', p.organizations(), body),
    organization: (orgId: Id) => get<WireOrganization>(p.organization(orgId)),
    updateOrganization: (orgId: Id, body: UpdateOrganizationRequest) => json<WireOrganization>('PATCH', p.organization(orgId), body),
    deleteOrganization: (orgId: Id) => del(p.organization(orgId)),
    locations: (orgId: Id) => get<WireLocation[]>(p.locations(orgId)),
    createLocation: (orgId: Id, body: CreateLocationRequest) => json<WireLocation>('POST', p.locations(orgId), body),
    location: (orgId: Id, locId: Id) => get<WireLocation>(p.location(orgId, locId)),
    updateLocation: (orgId: Id, locId: Id, body: UpdateLocationRequest) => json<WireLocation>('PATCH', p.location(orgId, locId), body),
    deleteLocation: (orgId: Id, locId: Id) => del(p.location(orgId, locId)),

    // assets
    assets: (orgId: Id, locId: Id, q?: AssetsQuery) => get<WireAsset[]>(p.assets(orgId, locId) + query(q)),
    createAsset: (orgId: Id, locId: Id, body: CreateAssetRequest) => json<WireAsset>('POST', p.assets(orgId, locId), body),
    asset: (orgId: Id, locId: Id, assetId: Id) => get<WireAsset>(p.asset(orgId, locId, assetId)),
    /** read-only fields of spec §3 are stripped, whatever the caller passes */
    updateAsset: (orgId: Id, locId: Id, assetId: Id, patch: UpdateAssetRequest | Record<string, unknown>) =>
      json<WireAsset>('PATCH', p.asset(orgId, locId, assetId), assetUpdatePayload(patch)),
    deleteAsset: (orgId: Id, locId: Id, assetId: Id) => del(p.asset(orgId, locId, assetId)),
    putAssetImage: (orgId: Id, locId: Id, assetId: Id, name: string, image: ImageBody, contentType?: string) =>
      blob<ImageResponse>(p.assetImage(orgId, locId, assetId, name), image, contentType),
    vote: (orgId: Id, locId: Id, assetId: Id, direction: 1 | -1) =>
      json<VoteResponse>('PUT', p.assetVote(orgId, locId, assetId), { direction }),
    deleteVote: async (orgId: Id, locId: Id, assetId: Id) =>
      (await http.request<VoteResponse>('DELETE', p.assetVote(orgId, locId, assetId))).data,

    // sensors and measurements
    sensors: (orgId: Id, locId: Id, q?: SensorsQuery) => get<WireSensor[]>(p.sensors(orgId, locId) + query(q)),
    createSensor: (orgId: Id, locId: Id, body: CreateSensorRequest) => json<WireSensor>('POST', p.sensors(orgId, locId), body),
    sensor: (orgId: Id, locId: Id, sensorId: Id) => get<WireSensor>(p.sensor(orgId, locId, sensorId)),
    updateSensor: (orgId: Id, locId: Id, sensorId: Id, body: UpdateSensorRequest) =>
      json<WireSensor>('PATCH', p.sensor(orgId, locId, sensorId), body),
    deleteSensor: (orgId: Id, locId: Id, sensorId: Id) => del(p.sensor(orgId, locId, sensorId)),
    /** one page; see measurementsAll for paging */
    measurements: (orgId: Id, locId: Id, type: string, q?: MeasurementsQuery) =>
      get<MeasurementsResponse>(p.measurements(orgId, locId, type) + query(q)),
    /** every page (limit 20000), advancing start past the last time until has_more_results is false */
    measurementsAll: (orgId: Id, locId: Id, type: string, range: MeasurementRange = {}, onProgress?: (p: LoadProgress) => void) =>
      fetchAllMeasurements((q) => client.measurements(orgId, locId, type, q), type, range, onProgress),
    ingestMeasurements: (body: IngestMeasurementsRequest) =>
      json<IngestMeasurementsResponse>('POST', p.ingestMeasurements(), body, MEASUREMENTS_INGEST_API_VERSION),

    // external objects
    externalObjects: (q: ExternalObjectsQuery) => get<WireExternalObject[]>(p.externalObjects() + query(q)),
    createExternalObject: (body: CreateExternalObjectRequest) => json<WireExternalObject>('POST', p.externalObjects(), body),
    externalObject: (id: Id) => get<WireExternalObject>(p.externalObject(id)),
    updateExternalObject: (id: Id, body: UpdateExternalObjectRequest) => json<WireExternalObject>('PATCH', p.externalObject(id), body),
    deleteExternalObject: (id: Id) => del(p.externalObject(id)),

    // users
    users: (orgId: Id) => get<WireUser[]>(p.users(orgId)),
    createUser: (orgId: Id, body: CreateUserRequest) => json<WireUser>('POST', p.users(orgId), body),
    user: (orgId: Id, userId: Id) => get<WireUser>(p.user(orgId, userId)),
    updateUser: (orgId: Id, userId: Id, body: UpdateUserRequest) => json<WireUser>('PATCH', p.user(orgId, userId), body),
    deleteUser: (orgId: Id, userId: Id) => del(p.user(orgId, userId)),
    putUserImage: (orgId: Id, userId: Id, image: ImageBody, contentType?: string) =>
      blob<ImageResponse>(p.userImage(orgId, userId), image, contentType),
    deleteUserImage: (orgId: Id, userId: Id) => del(p.userImage(orgId, userId)),
    setUserPassword: async (orgId: Id, userId: Id, body: SetPasswordRequest) => {
      await http.request('POST', p.userPassword(orgId, userId), { body: { json: body } });
    },
    inviteUser: (orgId: Id, body: InviteUserRequest) => json<InviteUserResponse>('POST', p.inviteUser(orgId), body),
    deleteLocationTag: (id: Id) => del(p.locationTag(id)),

    // booking and live auth
    book: (body: BookingRequest) => json<BookingResponse>('POST', p.booking(), body),
    cancelBooking: async (body: CancelBookingRequest) => {
      await http.request('DELETE', p.booking(), { body: { json: body } });
    },
    pusherAuth: (body: PusherAuthRequest) => form<PusherAuthResponse>(p.pusherAuth(), body),
  };
  return client;
}

export type RestClient = ReturnType<typeof createRestClient>;

/** The asset update payload of spec §3: never version, timestamps, owner, id or uuid (nor the location). */
export function assetUpdatePayload(patch: Record<string, unknown>): UpdateAssetRequest {
  const out: Record<string, unknown> = sharedAssetUpdatePayload(patch);
  delete out.location_id;
  return out as UpdateAssetRequest;
}

// Organization and location bodies (spec §7 /organizations, …/locations).

import { Type, type Static } from 'typebox';
import { CLOSED, Config, IdList, Nullable, SafeUrl, Text } from './common.js';

/** POST /organizations (admin) */
export const CreateOrganizationRequest = Type.Object({
  name: Text(200, 1),
  config: Type.Optional(Config),
  /** email domains whose sign-ups join this organization (admin) */
  email_domains: Type.Optional(Type.Array(Text(200, 3), { maxItems: 100 })),
  /** single-sign-on start URI, null for password sign-in (admin) */
  sso_uri: Type.Optional(Nullable(SafeUrl)),
}, CLOSED);
export type CreateOrganizationRequest = Static<typeof CreateOrganizationRequest>;

/** PATCH /organizations/{id} (edit of that organization; email_domains and sso_uri: admin) */
export const UpdateOrganizationRequest = Type.Partial(CreateOrganizationRequest, CLOSED);
export type UpdateOrganizationRequest = Static<typeof UpdateOrganizationRequest>;

/** POST /organizations/{orgId}/locations (edit) */
export const CreateLocationRequest = Type.Object({
  name: Text(200, 1),
  timezone: Text(64, 1),
  latitude: Type.Number({ minimum: -90, maximum: 90 }),
  longitude: Type.Number({ minimum: -180, maximum: 180 }),
  /** must be empty for a new location; a PATCH may only reorder */
  buildings: Type.Optional(IdList),
  config: Type.Optional(Config),
}, CLOSED);
export type CreateLocationRequest = Static<typeof CreateLocationRequest>;

export const UpdateLocationRequest = Type.Partial(CreateLocationRequest, CLOSED);
export type UpdateLocationRequest = Static<typeof UpdateLocationRequest>;

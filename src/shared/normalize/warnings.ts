// Warning texts of the normalizers, in one place so tests and log searches
// agree on them. Spec §5 names the conditions; the wording is ours.

export const WARN = {
  notAnObject: (kind: string) => `Ignoring ${kind}: not an object`,
  missingId: (kind: string) => `Ignoring ${kind} without an id`,
  notAList: (kind: string) => `Expected a list of ${kind}; got something else`,
  duplicateId: (kind: string, id: string) => `Duplicate ${kind} id ${id}; the later one wins`,
  malformedCoordinates: (kind: string, id: string, field: string) =>
    `Malformed ${field} of ${kind} ${id}; using 0`,
  malformedAngles: (kind: string, id: string) => `Malformed angles of ${kind} ${id}; using 0`,
  malformedOutline: (kind: string, id: string, field: string) => `Malformed ${field} of ${kind} ${id}; ignoring it`,
  wgs84WithoutLocation: (kind: string, id: string) =>
    `${kind} ${id} has wgs84 coordinates but no location to convert them around; using local coordinates`,
  malformedColor: (kind: string, id: string, field: string) => `Malformed ${field} of ${kind} ${id}; using null`,
  reservationWithoutBookingRef: (sensorId: string) =>
    `Discarding reservation event without booking_ref (sensor ${sensorId})`,
  reservationMalformed: (sensorId: string) => `Discarding reservation event with malformed start or end (sensor ${sensorId})`,
  locationWithoutCoordinates: (sensorId: string) =>
    `Ignoring location value without building-relative coordinates (sensor ${sensorId})`,
  measurementWithoutTime: (sensorId: string) => `Ignoring measurement value without a time (sensor ${sensorId})`,
  settingsWithoutUser: 'Settings carry no user with a non-empty string id',
  settingsWithoutPermissions: 'Settings carry no permission list',
  packetMalformed: (reason: string) => `Dropping live packet: ${reason}`,
  changeMalformed: (reason: string) => `Dropping live change: ${reason}`,
} as const;

// The broker of the MQTT integration tests: the server's own Mosquitto
// (server/live/mosquitto.ts), started apart from the server so it can stop and
// start again on the same ports while the engine keeps trying to reconnect.

import { startMosquitto, type MosquittoBroker } from '../../../server/live/mosquitto.js';

export type RestartableBroker = MosquittoBroker;

export function startRestartableBroker(): Promise<RestartableBroker> {
  return startMosquitto();
}

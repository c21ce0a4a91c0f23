// Publishes live packets to an MQTT v5 broker with mqtt.js, and gives each
// session its own broker credentials whose ACL covers only the user's
// organization's topics (Mosquitto dynamic security, driven over its $CONTROL
// topic). The edit audience's location topics ('_edit') reach edit-role users
// only. Each credential is bound to one client id, so nobody can take over
// another's connection by reusing its id, and ending a session deletes its
// credentials, which disconnects them at once (docs/security.md).

import { randomBytes } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import { mqttPublishTopic } from '../../src/shared/protocol.js';
import { MQTT_PROTOCOL_VERSION } from '../../src/shared/constants.js';
import type { WireUser } from '../../src/shared/rest.js';
import type { Id } from '../../src/shared/types.js';
import { hasRole } from '../auth.js';
import type { Revocation } from '../store/records.js';
import type { LiveSession, LiveTransport } from './transport.js';

const CONTROL_TOPIC = '$CONTROL/dynamic-security/v1';
const CONTROL_TIMEOUT_MS = 10_000;
/** Role of admins (FOREIGN_ORGANIZATION_ACCESS): every organization's changes. */
const ALL_ORGANIZATIONS_ROLE = 'storey-all-organizations';
/** Outranks the organization-wide allow, so a '#' subscriber without the edit role never receives '_edit'. */
const EDIT_DENY_PRIORITY = 10;

export interface MqttTransportOptions {
  /** mqtt:// URL the server publishes to */
  brokerUrl: string;
  /** ws:// URL given to browsers; defaults to brokerUrl */
  wsUrl?: string;
  username?: string;
  password?: string;
  /** provision per-user clients and ACLs through Mosquitto dynamic security */
  dynsec: boolean;
  /** without dynsec: credentials handed to every user (the broker's ACL is then its own business) */
  sharedClientCredentials?: { username: string; password: string };
}

export class DynsecError extends Error {
  override name = 'DynsecError';
  /** the live service is unavailable for now; clients retry on their back-off */
  readonly statusCode = 503;
}

interface DynsecCommand { command: string; [key: string]: unknown }
interface DynsecResponse { command: string; error?: string; data?: { clients?: unknown[] } }

/** Credentials a session keeps at once (one per open connection, e.g. several tabs); older ones are deleted. */
export const MQTT_CLIENTS_PER_SESSION = 4;
/** Usernames this transport provisions: `u{user id}-{random}`, which is also the client id they must use. */
const CLIENT_NAME = /^u\d+-[0-9a-f]{12}$/;
/** Usernames of earlier versions (one per user, not bound to a client id). */
const LEGACY_CLIENT_NAME = /^user-\d+$/;

interface Credential { username: string; userId: Id; sessionId: string }

export async function createMqttTransport(options: MqttTransportOptions): Promise<LiveTransport> {
  const client: MqttClient = await mqtt.connectAsync(options.brokerUrl, {
    protocolVersion: MQTT_PROTOCOL_VERSION,
    username: options.username,
    password: options.password,
    clientId: `storey-server-${randomBytes(6).toString('hex')}`,
    reconnectPeriod: 2_000,
    connectTimeout: 15_000,
  });
  /** session id → its credentials, oldest first */
  const bySession = new Map<string, Credential[]>();
  const orgRoles = new Set<Id>();
  const selfRoles = new Set<Id>();
  let controlQueue: Promise<unknown> = Promise.resolve();
  let pendingControl: ((responses: DynsecResponse[]) => void) | null = null;

  if (options.dynsec) {
    client.on('message', (topic, payload) => {
      if (topic !== `${CONTROL_TOPIC}/response` || !pendingControl) return;
      try {
        const { responses } = JSON.parse(payload.toString()) as { responses: DynsecResponse[] };
        pendingControl(responses);
      } catch { /* not ours */ }
    });
    await client.subscribeAsync(`${CONTROL_TOPIC}/response`, { qos: 1 });
  }

  /** Sends commands one batch at a time; "already exists" (and deleting a missing client) is not an error here. */
  function control(commands: DynsecCommand[]): Promise<DynsecResponse[]> {
    const run = async () => {
      // while the broker is away, say so at once instead of queueing commands nobody answers
      if (!client.connected) throw new DynsecError('the MQTT broker is not reachable');
      const answer = new Promise<DynsecResponse[]>((resolve, reject) => {
        const timer = setTimeout(() => { pendingControl = null; reject(new DynsecError('dynamic security did not answer')); }, CONTROL_TIMEOUT_MS);
        pendingControl = (responses) => { clearTimeout(timer); pendingControl = null; resolve(responses); };
      });
      await client.publishAsync(CONTROL_TOPIC, JSON.stringify({ commands }), { qos: 1 });
      const responses = await answer;
      const failed = responses.find((r) => r.error && !/already exists/i.test(r.error)
        && !(r.command === 'deleteClient' && /not found/i.test(r.error)));
      if (failed) throw new DynsecError(`${failed.command}: ${failed.error}`);
      return responses;
    };
    const next = controlQueue.then(run, run);
    controlQueue = next.catch(() => undefined);
    return next;
  }

  /** A role reading `pattern`; `denied` (higher priority) is kept out of both subscribing and receiving. */
  function roleCommands(rolename: string, pattern: string, denied?: string): DynsecCommand[] {
    const commands: DynsecCommand[] = [{ command: 'createRole', rolename }];
    if (denied) {
      for (const acltype of ['subscribePattern', 'publishClientReceive']) {
        commands.push({ command: 'addRoleACL', rolename, acltype, topic: denied, allow: false, priority: EDIT_DENY_PRIORITY });
      }
    }
    commands.push(
      { command: 'addRoleACL', rolename, acltype: 'subscribePattern', topic: pattern, allow: true },
      { command: 'addRoleACL', rolename, acltype: 'publishClientReceive', topic: pattern, allow: true },
      { command: 'addRoleACL', rolename, acltype: 'unsubscribePattern', topic: pattern, allow: true },
    );
    return commands;
  }

  /** New credentials for one connection of `session`, bound to their own client id. */
  async function provision(user: WireUser, session: LiveSession) {
    const admin = hasRole(user.permissions, 'admin');
    const edit = hasRole(user.permissions, 'edit');
    const username = `u${user.id}-${randomBytes(6).toString('hex')}`;
    const password = randomBytes(18).toString('base64url');
    const commands: DynsecCommand[] = [];
    const org = admin ? '+' : user.organization_id;
    const orgRole = `${admin ? ALL_ORGANIZATIONS_ROLE : `org-${user.organization_id}`}${edit ? '-edit' : ''}`;
    if (!orgRoles.has(orgRole)) {
      // the edit audience's topics: eb/changes/{org}/{location}/_edit/changes
      commands.push(...roleCommands(orgRole, admin ? 'eb/changes/#' : `eb/changes/${org}/#`, edit ? undefined : `eb/changes/${org}/+/_edit/#`));
    }
    if (!selfRoles.has(user.id)) commands.push(...roleCommands(`self-${user.id}`, `eb/users/${user.id}/#`));
    commands.push({
      command: 'createClient', username, password, clientid: username,
      roles: [{ rolename: orgRole }, { rolename: `self-${user.id}` }],
    });
    const list = bySession.get(session.sessionId) ?? [];
    const stale = list.length >= MQTT_CLIENTS_PER_SESSION ? list.splice(0, list.length - MQTT_CLIENTS_PER_SESSION + 1) : [];
    for (const old of stale) commands.push({ command: 'deleteClient', username: old.username });
    await control(commands);
    orgRoles.add(orgRole);
    selfRoles.add(user.id);
    list.push({ username, userId: user.id, sessionId: session.sessionId });
    bySession.set(session.sessionId, list);
    return { username, password, client_id: username };
  }

  /** Deletes the credentials of ended sessions; the broker disconnects whoever uses them. */
  async function revoke({ userId, sessionIds, wholeUser }: Revocation) {
    const ended = new Set(sessionIds);
    const doomed: Credential[] = [];
    for (const [sessionId, list] of bySession) {
      if (!ended.has(sessionId) && !(wholeUser && list.some((c) => c.userId === userId))) continue;
      doomed.push(...list);
      bySession.delete(sessionId);
    }
    if (doomed.length) await control(doomed.map((c) => ({ command: 'deleteClient', username: c.username })));
  }

  /** Credentials this transport left in an external broker before a restart belong to sessions that no longer exist. */
  async function removeStaleClients() {
    const [answer] = await control([{ command: 'listClients', verbose: false, count: -1, offset: 0 }]);
    const names = (answer?.data?.clients ?? []).map((c) => (typeof c === 'string' ? c : (c as { username?: string }).username ?? ''));
    const stale = names.filter((n) => CLIENT_NAME.test(n) || LEGACY_CLIENT_NAME.test(n));
    if (stale.length) await control(stale.map((username) => ({ command: 'deleteClient', username })));
  }
  if (options.dynsec) await removeStaleClients();

  const hostname = new URL(options.brokerUrl).hostname;
  return {
    name: 'mqtt',
    async send(scope, payloads) {
      const topic = mqttPublishTopic(scope);
      for (const payload of payloads) await client.publishAsync(topic, payload, { qos: 1 });
    },
    async settingsFor(user, _origin, session) {
      const base = { url: options.wsUrl ?? options.brokerUrl, mqtt_url: options.brokerUrl, hostname };
      if (options.dynsec) return { mqtt_config: { ...base, ...(await provision(user, session)) } };
      return { mqtt_config: { ...base, ...options.sharedClientCredentials } };
    },
    async revoke(revocation) {
      // without dynamic security the broker's own ACL is in charge; nothing to delete here
      if (options.dynsec) await revoke(revocation);
    },
    async close() {
      // a stopped server leaves no working credentials behind in a broker that outlives it
      const provisioned = [...bySession.values()].flat();
      bySession.clear();
      if (options.dynsec && provisioned.length) {
        await control(provisioned.map((c) => ({ command: 'deleteClient', username: c.username }))).catch(() => undefined);
      }
      await client.endAsync(true);
    },
  };
}

// Publishes live packets to an MQTT v5 broker with mqtt.js, and gives each
// user credentials whose ACL covers only their organization's topics
// (Mosquitto dynamic security, driven over its $CONTROL topic). The edit
// audience's location topics ('_edit') reach edit-role users only.

import { randomBytes } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import { mqttPublishTopic } from '../../src/shared/protocol.js';
import { MQTT_PROTOCOL_VERSION } from '../../src/shared/constants.js';
import type { WireUser } from '../../src/shared/rest.js';
import type { Id } from '../../src/shared/types.js';
import { hasRole } from '../auth.js';
import type { LiveTransport } from './transport.js';

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
}

interface DynsecCommand { command: string; [key: string]: unknown }
interface DynsecResponse { command: string; error?: string }

export async function createMqttTransport(options: MqttTransportOptions): Promise<LiveTransport> {
  const client: MqttClient = await mqtt.connectAsync(options.brokerUrl, {
    protocolVersion: MQTT_PROTOCOL_VERSION,
    username: options.username,
    password: options.password,
    clientId: `storey-server-${randomBytes(6).toString('hex')}`,
    reconnectPeriod: 2_000,
    connectTimeout: 15_000,
  });
  const credentials = new Map<Id, { username: string; password: string; orgId: Id; admin: boolean; edit: boolean }>();
  const orgRoles = new Set<Id>();
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

  async function provision(user: WireUser) {
    const admin = hasRole(user.permissions, 'admin');
    const edit = hasRole(user.permissions, 'edit');
    const existing = credentials.get(user.id);
    if (existing && existing.orgId === user.organization_id && existing.admin === admin && existing.edit === edit) return existing;
    const username = `user-${user.id}`;
    const password = randomBytes(18).toString('base64url');
    const commands: DynsecCommand[] = [];
    const org = admin ? '+' : user.organization_id;
    const orgRole = `${admin ? ALL_ORGANIZATIONS_ROLE : `org-${user.organization_id}`}${edit ? '-edit' : ''}`;
    if (!orgRoles.has(orgRole)) {
      // the edit audience's topics: eb/changes/{org}/{location}/_edit/changes
      commands.push(...roleCommands(orgRole, admin ? 'eb/changes/#' : `eb/changes/${org}/#`, edit ? undefined : `eb/changes/${org}/+/_edit/#`));
    }
    commands.push(...roleCommands(`self-${user.id}`, `eb/users/${user.id}/#`));
    // a broker that outlives a server restart still knows the client: recreate it with the new password
    commands.push({ command: 'deleteClient', username });
    commands.push({
      command: 'createClient', username, password,
      roles: [{ rolename: orgRole }, { rolename: `self-${user.id}` }],
    });
    await control(commands);
    orgRoles.add(orgRole);
    const rec = { username, password, orgId: user.organization_id, admin, edit };
    credentials.set(user.id, rec);
    return rec;
  }

  const hostname = new URL(options.brokerUrl).hostname;
  return {
    name: 'mqtt',
    async send(scope, payloads) {
      const topic = mqttPublishTopic(scope);
      for (const payload of payloads) await client.publishAsync(topic, payload, { qos: 1 });
    },
    async settingsFor(user) {
      const base = { url: options.wsUrl ?? options.brokerUrl, mqtt_url: options.brokerUrl, hostname };
      if (options.dynsec) {
        const { username, password } = await provision(user);
        return { mqtt_config: { ...base, username, password } };
      }
      return { mqtt_config: { ...base, ...options.sharedClientCredentials } };
    },
    async close() {
      await client.endAsync(true);
    },
  };
}

// A Mosquitto (MQTT v5, dynamic security) the test can stop and start again on
// the same ports with the same security file, to show the engine surviving a
// broker restart. The server's own startMosquitto cannot restart in place.

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { DYNSEC_PLUGIN, MOSQUITTO_BIN, MOSQUITTO_CTRL_BIN } from '../../../server/live/mosquitto.js';

export interface RestartableBroker {
  mqttUrl: string;
  wsUrl: string;
  adminUsername: string;
  adminPassword: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** removes a dynsec client (disconnecting it), as mosquitto_ctrl does */
  deleteClient(username: string): Promise<void>;
  close(): Promise<void>;
}

const run = promisify(execFile);

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const canConnect = (port: number) => new Promise<boolean>((resolve) => {
  const socket = createConnection({ port, host: '127.0.0.1' });
  socket.once('connect', () => { socket.destroy(); resolve(true); });
  socket.once('error', () => resolve(false));
});

export async function startRestartableBroker(): Promise<RestartableBroker> {
  const dir = await mkdtemp(join(tmpdir(), 'storey-it-mosquitto-'));
  const adminUsername = 'it-admin';
  const adminPassword = randomBytes(12).toString('base64url');
  const dynsecFile = join(dir, 'dynsec.json');
  await run(MOSQUITTO_CTRL_BIN, ['dynsec', 'init', dynsecFile, adminUsername, adminPassword]);
  const json = JSON.parse(await readFile(dynsecFile, 'utf8'));
  json.roles.find((r: { rolename: string }) => r.rolename === 'admin').acls.push({ acltype: 'publishClientSend', topic: 'eb/#', allow: true });
  json.defaultACLAccess = { publishClientSend: false, publishClientReceive: false, subscribe: false, unsubscribe: true };
  await writeFile(dynsecFile, JSON.stringify(json, null, 2));
  const [mqttPort, wsPort] = [await freePort(), await freePort()];
  const confFile = join(dir, 'mosquitto.conf');
  await writeFile(confFile, [
    'per_listener_settings false', 'allow_anonymous false', 'persistence false',
    // as root, mosquitto would drop to a user that cannot read our private temp dir
    `user ${userInfo().username}`,
    `listener ${mqttPort} 127.0.0.1`, 'protocol mqtt',
    `listener ${wsPort} 127.0.0.1`, 'protocol websockets', 'bind_interface lo',
    `plugin ${DYNSEC_PLUGIN}`, `plugin_opt_config_file ${dynsecFile}`,
    'log_dest stderr', 'log_type error', '',
  ].join('\n'));

  let child: ChildProcess | null = null;
  async function start() {
    const c = spawn(MOSQUITTO_BIN, ['-c', confFile], { stdio: ['ignore', 'ignore', 'pipe'] });
    child = c;
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (c.exitCode !== null) throw new Error('mosquitto exited at start');
      if ((await canConnect(mqttPort)) && (await canConnect(wsPort))) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('mosquitto did not start');
  }
  async function stop() {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => c.once('exit', () => resolve()));
    c.kill('SIGTERM');
    await exited;
  }
  await start();
  return {
    mqttUrl: `mqtt://127.0.0.1:${mqttPort}`,
    wsUrl: `ws://127.0.0.1:${wsPort}`,
    adminUsername,
    adminPassword,
    start,
    stop,
    async deleteClient(username) {
      await run(MOSQUITTO_CTRL_BIN, ['-h', '127.0.0.1', '-p', String(mqttPort), '-u', adminUsername, '-P', adminPassword, 'dynsec', 'deleteClient', username]);
    },
    async close() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

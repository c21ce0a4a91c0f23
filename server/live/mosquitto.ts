// Starts a private Mosquitto 2 broker for the MQTT v5 transport: loopback
// listeners (MQTT and websockets for browsers) on free ports, and the
// dynamic-security plugin so every user gets their own credentials and an
// ACL limited to their organization (docs/server.md). It can stop and start
// again on the same ports and security file, which the tests use to show
// clients surviving a broker restart.

import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';

export const MOSQUITTO_BIN = '/usr/sbin/mosquitto';
export const MOSQUITTO_CTRL_BIN = '/usr/bin/mosquitto_ctrl';
export const DYNSEC_PLUGIN = '/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so';
const START_TIMEOUT_MS = 10_000;
const START_ATTEMPTS = 3;

export interface MosquittoOptions {
  bin?: string;
  ctrlBin?: string;
  plugin?: string;
  /** extra lines for the generated config (e.g. log_type all) */
  extraConfig?: string[];
}

export interface MosquittoBroker {
  /** mqtt://127.0.0.1:port */
  mqttUrl: string;
  /** ws://127.0.0.1:port */
  wsUrl: string;
  adminUsername: string;
  adminPassword: string;
  /** last lines the broker printed, for diagnostics */
  log(): string;
  /** stops the broker process; provisioned clients stay in the security file */
  stop(): Promise<void>;
  /** starts it again on the same ports and security file (after stop) */
  start(): Promise<void>;
  /** removes a dynamic-security client, disconnecting it (mosquitto_ctrl dynsec deleteClient) */
  deleteClient(username: string): Promise<void>;
  /** stops the broker and removes its files */
  close(): Promise<void>;
}

export class MosquittoStartError extends Error {
  override name = 'MosquittoStartError';
}

/** A port that was free on 127.0.0.1 a moment ago. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Whether something accepts TCP connections on 127.0.0.1:port. */
export function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
  });
}

/** Admin may administer dynsec and publish the live topics; nobody receives by default. */
async function writeDynsec(ctrlBin: string, file: string, admin: string, password: string): Promise<void> {
  await promisify(execFile)(ctrlBin, ['dynsec', 'init', file, admin, password]);
  const json = JSON.parse(await readFile(file, 'utf8')) as {
    roles: Array<{ rolename: string; acls: Array<{ acltype: string; topic: string; allow: boolean; priority?: number }> }>;
    defaultACLAccess: Record<string, boolean>;
  };
  const adminRole = json.roles.find((r) => r.rolename === 'admin');
  if (!adminRole) throw new MosquittoStartError('dynsec init wrote no admin role');
  adminRole.acls.push({ acltype: 'publishClientSend', topic: 'eb/#', allow: true });
  json.defaultACLAccess = { publishClientSend: false, publishClientReceive: false, subscribe: false, unsubscribe: true };
  await writeFile(file, JSON.stringify(json, null, 2));
}

function configText(options: MosquittoOptions, mqttPort: number, wsPort: number, dynsecFile: string): string {
  return [
    // run as ourselves: as root, mosquitto would drop to a user that cannot read our private temp dir
    `user ${userInfo().username}`,
    'per_listener_settings false',
    'allow_anonymous false',
    'persistence false',
    `listener ${mqttPort} 127.0.0.1`,
    'protocol mqtt',
    `listener ${wsPort} 127.0.0.1`,
    'protocol websockets',
    // libwebsockets ignores the address above; pin the socket to loopback
    'bind_interface lo',
    `plugin ${options.plugin ?? DYNSEC_PLUGIN}`,
    `plugin_opt_config_file ${dynsecFile}`,
    'log_dest stderr',
    'log_type error',
    'log_type warning',
    ...(options.extraConfig ?? []),
    '',
  ].join('\n');
}

interface Running {
  child: ChildProcess;
  output(): string;
}

/** Spawns the broker and waits until every listener accepts; `failed` carries its output when it did not come up. */
async function spawnBroker(bin: string, confFile: string, ports: number[]): Promise<Running | { failed: string }> {
  const child = spawn(bin, ['-c', confFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const collect = (chunk: Buffer) => { output = (output + chunk.toString()).slice(-8_000); };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  let exited = false;
  child.once('exit', () => { exited = true; });
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!exited && Date.now() < deadline) {
    let all = true;
    for (const port of ports) if (!(await canConnect(port))) { all = false; break; }
    if (all) return { child, output: () => output };
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  return { failed: output.trim() || 'no output' };
}

export async function startMosquitto(options: MosquittoOptions = {}): Promise<MosquittoBroker> {
  const dir = await mkdtemp(join(tmpdir(), 'storey-mosquitto-'));
  const adminUsername = 'storey-admin';
  const adminPassword = randomBytes(18).toString('base64url');
  const dynsecFile = join(dir, 'dynsec.json');
  const confFile = join(dir, 'mosquitto.conf');
  const bin = options.bin ?? MOSQUITTO_BIN;
  const ctrlBin = options.ctrlBin ?? MOSQUITTO_CTRL_BIN;
  await writeDynsec(ctrlBin, dynsecFile, adminUsername, adminPassword);

  let running: Running | null = null;
  let ports: [number, number] = [0, 0];
  let lastError = 'mosquitto did not start';
  // never leave a broker behind when this process ends without close()
  const killOnExit = () => { running?.child.kill('SIGKILL'); };
  for (let attempt = 0; attempt < START_ATTEMPTS && !running; attempt += 1) {
    ports = [await freePort(), await freePort()];
    await writeFile(confFile, configText(options, ports[0], ports[1], dynsecFile));
    const result = await spawnBroker(bin, confFile, ports);
    if ('failed' in result) lastError = `mosquitto did not start: ${result.failed}`;
    else running = result;
  }
  if (!running) {
    await rm(dir, { recursive: true, force: true });
    throw new MosquittoStartError(lastError);
  }
  process.once('exit', killOnExit);
  let lastOutput = '';

  const stopProcess = async () => {
    const current = running;
    running = null;
    if (!current) return;
    lastOutput = current.output();
    await stop(current.child);
  };
  const [mqttPort, wsPort] = ports;
  return {
    mqttUrl: `mqtt://127.0.0.1:${mqttPort}`,
    wsUrl: `ws://127.0.0.1:${wsPort}`,
    adminUsername,
    adminPassword,
    log: () => running?.output() ?? lastOutput,
    stop: stopProcess,
    async start() {
      if (running) return;
      const result = await spawnBroker(bin, confFile, ports);
      if ('failed' in result) throw new MosquittoStartError(`mosquitto did not restart: ${result.failed}`);
      running = result;
    },
    async deleteClient(username) {
      await promisify(execFile)(ctrlBin, [
        '-h', '127.0.0.1', '-p', String(mqttPort), '-u', adminUsername, '-P', adminPassword, 'dynsec', 'deleteClient', username,
      ]);
    },
    async close() {
      process.off('exit', killOnExit);
      await stopProcess();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
    await exited;
    clearTimeout(timer);
  }
}

// Starts a private Mosquitto 2 broker for the MQTT v5 transport: loopback
// listeners (MQTT and websockets for browsers) on free ports, and the
// dynamic-security plugin so every user gets their own credentials and an
// ACL limited to their organization (docs/server.md).

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
  close(): Promise<void>;
}

export class MosquittoStartError extends Error {
  override name = 'MosquittoStartError';
}

async function freePort(): Promise<number> {
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

function canConnect(port: number): Promise<boolean> {
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

export async function startMosquitto(options: MosquittoOptions = {}): Promise<MosquittoBroker> {
  const dir = await mkdtemp(join(tmpdir(), 'storey-mosquitto-'));
  const adminUsername = 'storey-admin';
  const adminPassword = randomBytes(18).toString('base64url');
  const dynsecFile = join(dir, 'dynsec.json');
  await writeDynsec(options.ctrlBin ?? MOSQUITTO_CTRL_BIN, dynsecFile, adminUsername, adminPassword);

  let lastError: Error | null = null;
  for (let attempt = 0; attempt < START_ATTEMPTS; attempt += 1) {
    const [mqttPort, wsPort] = [await freePort(), await freePort()];
    const conf = [
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
    const confFile = join(dir, 'mosquitto.conf');
    await writeFile(confFile, conf);
    const child = spawn(options.bin ?? MOSQUITTO_BIN, ['-c', confFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk: Buffer) => { output = (output + chunk.toString()).slice(-8_000); };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    let exited = false;
    child.once('exit', () => { exited = true; });
    const deadline = Date.now() + START_TIMEOUT_MS;
    let ready = false;
    while (!exited && Date.now() < deadline) {
      if ((await canConnect(mqttPort)) && (await canConnect(wsPort))) { ready = true; break; }
      await new Promise((r) => setTimeout(r, 50));
    }
    if (ready && !exited) {
      // never leave a broker behind when this process ends without close()
      const killOnExit = () => { child.kill('SIGKILL'); };
      process.once('exit', killOnExit);
      return {
        mqttUrl: `mqtt://127.0.0.1:${mqttPort}`,
        wsUrl: `ws://127.0.0.1:${wsPort}`,
        adminUsername,
        adminPassword,
        log: () => output,
        close: async () => {
          process.off('exit', killOnExit);
          await stop(child, dir);
        },
      };
    }
    child.kill('SIGKILL');
    lastError = new MosquittoStartError(`mosquitto did not start: ${output.trim() || 'no output'}`);
  }
  await rm(dir, { recursive: true, force: true });
  throw lastError ?? new MosquittoStartError('mosquitto did not start');
}

async function stop(child: ChildProcess, dir: string): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
    await exited;
    clearTimeout(timer);
  }
  await rm(dir, { recursive: true, force: true });
}

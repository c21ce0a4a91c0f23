// `npm run server`: the reference backend and simulator from the command
// line. Flags win over environment variables, which win over defaults; all
// three are listed in docs/server.md. Prints the URL and a demo account per role.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { closeOnSignals, startStoreyServer, type PusherCredentials, type ServerOptions } from './app.js';

const { values: flags } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    transport: { type: 'string' },
    'mqtt-url': { type: 'string' },
    'mqtt-ws-url': { type: 'string' },
    'mqtt-username': { type: 'string' },
    'mqtt-password': { type: 'string' },
    'mqtt-dynsec': { type: 'boolean' },
    'mqtt-client-username': { type: 'string' },
    'mqtt-client-password': { type: 'string' },
    'pusher-hosted': { type: 'boolean' },
    'pusher-app-id': { type: 'string' },
    'pusher-key': { type: 'string' },
    'pusher-secret': { type: 'string' },
    'pusher-cluster': { type: 'string' },
    seed: { type: 'string' },
    desks: { type: 'string' },
    sensors: { type: 'string' },
    employees: { type: 'string' },
    'history-days': { type: 'string' },
    'sim-rate': { type: 'string' },
    'no-sim': { type: 'boolean' },
    static: { type: 'string' },
    'openid-key-file': { type: 'string' },
    'openid-alg': { type: 'string' },
    'openid-audience': { type: 'string' },
    'openid-issuer': { type: 'string' },
    'dev-routes': { type: 'boolean' },
    log: { type: 'boolean' },
    'cors-origins': { type: 'string' },
    'public-url': { type: 'string' },
    'trust-proxy': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
  strict: true,
});

if (flags.help) {
  console.log('Usage: npm run server -- [--port 8080] [--host 127.0.0.1] [--transport pusher|mqtt] [--seed 1] [--desks 96]\n'
    + '  [--sensors N] [--sim-rate 5] [--no-sim] [--static dir] …  (every flag and variable: docs/server.md)');
  process.exit(0);
}

const env = process.env;
const str = (flag: string | undefined, variable: string, fallback?: string) => flag ?? env[variable] ?? fallback;
const int = (flag: string | undefined, variable: string, fallback: number) => {
  const raw = str(flag, variable);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${variable} must be a non-negative number, got ${raw}`);
  return n;
};
const bool = (flag: boolean | undefined, variable: string) => flag ?? (env[variable] === '1' || env[variable] === 'true');

const transport = str(flags.transport, 'STOREY_TRANSPORT', 'pusher');
if (transport !== 'pusher' && transport !== 'mqtt') throw new Error(`--transport must be pusher or mqtt, got ${transport}`);
const pusherCreds = {
  appId: str(flags['pusher-app-id'], 'PUSHER_APP_ID'),
  key: str(flags['pusher-key'], 'PUSHER_KEY'),
  secret: str(flags['pusher-secret'], 'PUSHER_SECRET'),
  cluster: str(flags['pusher-cluster'], 'PUSHER_CLUSTER'),
};
const hosted = bool(flags['pusher-hosted'], 'PUSHER_HOSTED');
if (hosted && (!pusherCreds.appId || !pusherCreds.key || !pusherCreds.secret || !pusherCreds.cluster)) {
  throw new Error('--pusher-hosted needs --pusher-app-id, --pusher-key, --pusher-secret and --pusher-cluster (or PUSHER_* variables)');
}
const mqttUrl = str(flags['mqtt-url'], 'STOREY_MQTT_URL');
const openIdKeyFile = str(flags['openid-key-file'], 'STOREY_OPENID_KEY_FILE');
const openIdAlg = str(flags['openid-alg'], 'STOREY_OPENID_ALG', 'RS256');
if (openIdAlg !== 'RS256' && openIdAlg !== 'HS256') throw new Error('--openid-alg must be RS256 or HS256');
const openIdAudience = str(flags['openid-audience'], 'STOREY_OPENID_AUDIENCE');
if (openIdKeyFile && !openIdAudience) throw new Error('--openid-audience is required with --openid-key-file: without it an id_token issued to any other app of the provider would sign in here');
const staticDir = str(flags.static, 'STOREY_STATIC');

const options: ServerOptions = {
  host: str(flags.host, 'HOST', '127.0.0.1'),
  port: int(flags.port, 'PORT', 8080),
  transport,
  hostedPusher: hosted ? (pusherCreds as PusherCredentials) : undefined,
  pusher: hosted ? undefined : pusherCreds,
  mqtt: mqttUrl ? {
    url: mqttUrl,
    wsUrl: str(flags['mqtt-ws-url'], 'STOREY_MQTT_WS_URL'),
    username: str(flags['mqtt-username'], 'STOREY_MQTT_USERNAME'),
    password: str(flags['mqtt-password'], 'STOREY_MQTT_PASSWORD'),
    dynsec: bool(flags['mqtt-dynsec'], 'STOREY_MQTT_DYNSEC'),
    clientUsername: str(flags['mqtt-client-username'], 'STOREY_MQTT_CLIENT_USERNAME'),
    clientPassword: str(flags['mqtt-client-password'], 'STOREY_MQTT_CLIENT_PASSWORD'),
  } : undefined,
  seed: {
    seed: int(flags.seed, 'STOREY_SEED', 1),
    desks: int(flags.desks, 'STOREY_DESKS', 96),
    sensors: int(flags.sensors, 'STOREY_SENSORS', 0),
    employees: int(flags.employees, 'STOREY_EMPLOYEES', 24),
    historyDays: int(flags['history-days'], 'STOREY_HISTORY_DAYS', 14),
  },
  simulate: !bool(flags['no-sim'], 'STOREY_NO_SIM'),
  simulator: { rate: int(flags['sim-rate'], 'STOREY_SIM_RATE', 5) },
  staticDir: staticDir ? resolve(staticDir) : undefined,
  openId: openIdKeyFile ? {
    key: readFileSync(openIdKeyFile, 'utf8'), algorithm: openIdAlg, audience: openIdAudience!, issuer: str(flags['openid-issuer'], 'STOREY_OPENID_ISSUER'),
  } : null,
  devRoutes: bool(flags['dev-routes'], 'STOREY_DEV_ROUTES'),
  logger: bool(flags.log, 'STOREY_LOG'),
  corsOrigins: str(flags['cors-origins'], 'STOREY_CORS_ORIGINS')?.split(',').map((o) => o.trim()).filter(Boolean),
  publicUrl: str(flags['public-url'], 'STOREY_PUBLIC_URL'),
  trustProxy: bool(flags['trust-proxy'], 'STOREY_TRUST_PROXY'),
};

const server = await startStoreyServer(options);
const { accounts } = server.seed;
console.log(`Storey reference server on ${server.url} (API ${server.baseUrl}, live: ${server.transport.name}${server.broker ? ` via Mosquitto ${server.broker.mqttUrl}` : ''})`);
console.log('Demo accounts:');
for (const a of Object.values(accounts)) console.log(`  ${a.role.padEnd(8)} ${a.email.padEnd(22)} ${a.password}`);
if (staticDir) console.log(`Serving the viewer from ${options.staticDir}`);

closeOnSignals(server);

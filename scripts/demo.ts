// The README's demo command (`npm install && npm run demo`): builds the viewer
// with vite, starts the reference server with the simulator on its embedded
// defaults serving the built viewer, and prints the URL and one account per
// role. PORT (default 8080) picks the port; a busy port falls back to a free one.

import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { closeOnSignals, startStoreyServer, type StoreyServer } from '../server/app.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const staticDir = fileURLToPath(new URL('../dist', import.meta.url));
const wantedPort = Number(process.env.PORT ?? 8080);
const host = process.env.HOST ?? '127.0.0.1';

async function start(port: number): Promise<StoreyServer> {
  return startStoreyServer({ host, port, staticDir, simulate: true });
}

async function main(): Promise<void> {
  console.log('Building the viewer…');
  await build({ root: `${root}src/ui`, configFile: `${root}vite.config.ts`, logLevel: 'warn' });

  let server: StoreyServer;
  try {
    server = await start(wantedPort);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    console.log(`Port ${wantedPort} is busy; using a free one.`);
    server = await start(0);
  }

  const rows = Object.values(server.seed.accounts).map((a) => ({ role: a.role, email: a.email, password: a.password }));
  console.log(`\nStorey demo is running: ${server.url}/\n`);
  console.log('Demo accounts (one per role):');
  console.table(rows);
  console.log('The simulator moves people, changes occupancy, sensor values and reservations live.');
  console.log('Press Ctrl+C to stop.');

  closeOnSignals(server);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

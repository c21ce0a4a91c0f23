// A loopback proxy in front of the reference server for e2e tests: it can
// hold requests back (a slow network), refuse the requests of one path (a
// failing endpoint), and go down and come back on the same port (a server
// outage), HTTP and WebSocket alike, while the server behind it keeps its
// data and sessions.

import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface ApiProxy {
  url: string;
  /** new requests (those the match takes, when given: it sees the path and the method) wait until release() */
  hold(match?: (path: string, method: string) => boolean): void;
  release(): void;
  /** requests whose path matches are answered with this status and not forwarded; null: none */
  fail(path: RegExp | null, status?: number): void;
  /** closes the port and cuts every open connection */
  stop(): Promise<void>;
  /** listens again on the same port */
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function createApiProxy(target: string): Promise<ApiProxy> {
  const upstream = new URL(target);
  const sockets = new Set<Socket>();
  let held: Array<() => void> | null = null;
  let holds: (path: string, method: string) => boolean = () => true;
  let failing: { path: RegExp; status: number } | null = null;
  let port = 0;

  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const out = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(out);
  };

  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    // preflights pass, so the browser reads the refusal itself rather than a CORS failure
    if (req.method !== 'OPTIONS' && failing?.path.test(path)) {
      // a browser reads an answer from another origin only with the CORS header
      res.writeHead(failing.status, { 'content-type': 'application/json', 'access-control-allow-origin': req.headers.origin ?? '*' });
      res.end(JSON.stringify({ error: 'refused by the test proxy' }));
      return;
    }
    if (held && holds(path, req.method ?? 'GET')) held.push(() => forward(req, res));
    else forward(req, res);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('upgrade', (req, socket, head) => {
    const go = () => {
      const out = connect(Number(upstream.port), upstream.hostname, () => {
        const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
        for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
        out.write(`${lines.join('\r\n')}\r\n\r\n`);
        if (head.length) out.write(head);
        out.pipe(socket);
        socket.pipe(out);
      });
      sockets.add(out);
      out.on('close', () => {
        sockets.delete(out);
        socket.destroy();
      });
      out.on('error', () => socket.destroy());
      socket.on('error', () => out.destroy());
      socket.on('close', () => out.destroy());
    };
    if (held && holds(req.url ?? '/', req.method ?? 'GET')) held.push(go);
    else go();
  });

  const listen = () => new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', fail);
      port = (server.address() as AddressInfo).port;
      done();
    });
  });
  await listen();

  const stop = () =>
    new Promise<void>((done) => {
      server.close(() => done());
      for (const s of sockets) s.destroy();
      sockets.clear();
    });

  const release = () => {
    const queue = held ?? [];
    held = null;
    holds = () => true;
    for (const go of queue) go();
  };

  return {
    url: `http://127.0.0.1:${port}`,
    hold(match) {
      held ??= [];
      holds = match ?? (() => true);
    },
    release,
    fail(path, status = 503) {
      failing = path ? { path, status } : null;
    },
    stop,
    start: listen,
    async close() {
      release();
      if (server.listening) await stop();
    },
  };
}

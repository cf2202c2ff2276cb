import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer } from './createServer.js';
import type { ServeOptions } from './ServeOptions.js';

/** Options of {@link startServer}. */
export interface StartServerOptions extends ServeOptions {
  /** Port to listen on; 0 picks a free one. Defaults to 0. */
  port?: number;
  /** Interface to bind. Defaults to 127.0.0.1 (loopback only). */
  host?: string;
}

/** A listening server. */
export interface RunningServer {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:40123`. */
  url: string;
  port: number;
  server: http.Server;
  /** Stops accepting connections, lets requests in flight finish (up to `graceMs`), then closes. */
  close(graceMs?: number): Promise<void>;
}

/** Stops a server gracefully: idle connections close at once, busy ones after `graceMs`. */
export function closeServer(server: http.Server, graceMs = 2000): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    const timer = setTimeout(() => server.closeAllConnections(), graceMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/** Creates the service and starts listening (on 127.0.0.1 and a free port unless told otherwise). */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const server = createServer(options);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    port: address.port,
    server,
    close: (graceMs?: number) => closeServer(server, graceMs),
  };
}

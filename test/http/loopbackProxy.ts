/**
 * A loopback HTTP proxy for tests: forwards plain-HTTP requests sent in
 * absolute-form (`GET http://host:port/path`) and tunnels CONNECT, recording
 * each. It can be told to answer every request itself (a 407, a 502) instead.
 */
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

/** A request the proxy saw. */
export interface ProxiedRequest {
  method: string;
  /** The absolute URL (forwarded requests) or `host:port` (CONNECT). */
  url: string;
  headers: IncomingHttpHeaders;
}

export interface LoopbackProxy {
  /** `http://127.0.0.1:PORT` */
  url: string;
  seen: ProxiedRequest[];
  /** Answer every request with this status instead of forwarding it. Defaults to forwarding. */
  answer: number | undefined;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['proxy-authorization', 'proxy-connection', 'connection', 'keep-alive']);

export async function startLoopbackProxy(): Promise<LoopbackProxy> {
  const sockets = new Set<Socket>();
  const proxy: LoopbackProxy = { url: '', seen: [], answer: undefined, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    proxy.seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    if (proxy.answer !== undefined) {
      res
        .writeHead(proxy.answer, proxy.answer === 407 ? { 'proxy-authenticate': 'Basic realm="test"' } : {})
        .end(`proxy says ${proxy.answer}`);
      return;
    }
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('not an absolute-form request');
      return;
    }
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !HOP_BY_HOP.has(k)));
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: req.method,
        headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502);
      res.end(String(err));
    });
    req.pipe(upstream);
  });
  server.on('connect', (req, socket: Socket, head: Buffer) => {
    proxy.seen.push({ method: 'CONNECT', url: req.url ?? '', headers: req.headers });
    if (proxy.answer !== undefined) {
      socket.end(`HTTP/1.1 ${proxy.answer} Refused\r\n\r\n`);
      return;
    }
    const [host, port] = (req.url ?? '').split(/:(?=\d+$)/);
    const upstream = connect(Number(port), host!, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return proxy;
}

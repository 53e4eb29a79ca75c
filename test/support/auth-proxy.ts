// Test-only: the MCP conformance suite sends no token, so this proxy adds one.
// Host and Origin pass through unchanged, except that the proxy's own loopback
// authority is translated to the server's, so the guard still judges every
// request exactly as it would without the proxy.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export async function authProxy(target: { port: number }, token: string): Promise<{ url: string; close(): Promise<void> }> {
  let own = '';
  const server: Server = createServer((req, res) => {
    const headers = { ...req.headers, authorization: `Bearer ${token}` };
    const swap = (value: string) => value.replace(own, `:${target.port}`);
    for (const name of ['host', 'origin'] as const) {
      const value = headers[name];
      if (typeof value === 'string' && /^(http:\/\/)?(127\.0\.0\.1|localhost|\[::1\]):\d+$/.test(value) && value.endsWith(own)) headers[name] = swap(value);
    }
    const upstream = request({ host: '127.0.0.1', port: target.port, method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  own = `:${(server.address() as AddressInfo).port}`;
  return {
    url: `http://127.0.0.1${own}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

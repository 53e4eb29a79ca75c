// The throughput load: keep-alive connections, each with one request in flight,
// written as ready-made bytes and read by Content-Length or chunk sizes. node:http's client
// spends about as much CPU per request as the server does; on a 2-core machine
// it would cap the figure at the client's speed, not the server's.
import { connect } from 'node:net';

export interface Load {
  port: number;
  /** The next request: method, path, headers, optional JSON body. */
  next(): { method: string; path: string; headers: Record<string, string>; body?: string };
}

function bytes(port: number, { method, path, headers, body }: ReturnType<Load['next']>): string {
  const lines = [`${method} ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  if (body !== undefined) lines.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`);
  return `${lines.join('\r\n')}\r\n\r\n${body ?? ''}`;
}

/** Where the response's body ends in `buf`, or -1 while it is incomplete. */
function bodyEnd(buf: Buffer, start: number, head: string): number {
  const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1];
  if (length !== undefined) return buf.length >= start + Number(length) ? start + Number(length) : -1;
  if (!/\r\ntransfer-encoding: *chunked/i.test(head)) throw new Error(`response without a length: ${head.split('\r\n')[0]}`);
  for (let at = start; ;) {
    const lineEnd = buf.indexOf('\r\n', at);
    if (lineEnd < 0) return -1;
    const size = parseInt(buf.toString('latin1', at, lineEnd), 16);
    const next = lineEnd + 2 + size + 2;
    if (buf.length < next) return -1;
    if (size === 0) return next;
    at = next;
  }
}

/** Completed requests of one connection until `until` (performance.now() time). */
function drive(load: Load, until: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(load.port, '127.0.0.1');
    socket.setNoDelay(true);
    let pending: Buffer = Buffer.alloc(0);
    let done = 0;
    let finished = false;
    const fail = (error: Error) => {
      finished = true;
      socket.destroy();
      reject(error);
    };
    const send = () => {
      if (performance.now() >= until) {
        finished = true;
        socket.end();
        resolve(done);
      } else socket.write(bytes(load.port, load.next()));
    };
    socket.on('connect', send);
    socket.on('error', fail);
    socket.on('close', () => finished || fail(new Error('the server closed a connection mid-load')));
    socket.on('data', (chunk: Buffer) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      const headEnd = pending.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const head = pending.toString('latin1', 0, headEnd);
      const end = bodyEnd(pending, headEnd + 4, head);
      if (end < 0) return;
      const status = Number(head.slice(9, 12));
      if (status >= 300)
        return fail(
          new Error(
            `${head.split('\r\n')[0]}: ${pending
              .toString('utf8', headEnd + 4, end)
              .replace(/\s+/g, ' ')
              .slice(0, 300)}`,
          ),
        );
      pending = pending.subarray(end);
      done++;
      send();
    });
  });
}

/** Completed requests with `connections` clients in flight for `ms` milliseconds. */
export async function throughput(load: Load, connections = 8, ms = 1500): Promise<{ completed: number; perSecond: number }> {
  const started = performance.now();
  const counts = await Promise.all(Array.from({ length: connections }, () => drive(load, started + ms)));
  const completed = counts.reduce((a, b) => a + b, 0);
  return { completed, perSecond: completed / ((performance.now() - started) / 1000) };
}

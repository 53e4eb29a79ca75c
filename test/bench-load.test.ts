// The benchmark's throughput load reads responses itself; a miscount would
// print a wrong requests/s, so it is checked against a real server here.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { throughput } from '../bench/load';

let server: Server;
let port: number;
let served = 0;
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      served++;
      seen.push(`${req.method} ${req.url} ${req.headers.authorization} ${body}`);
      if (req.url === '/fail') return void res.writeHead(500).end('{"error":"boom"}');
      // Both ways a server frames a body: a Content-Length, or chunks of any size.
      if (req.url === '/chunked') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write('{"data":[');
        res.write('1,2,3'.repeat(5000));
        return void res.end(']}');
      }
      const text = JSON.stringify({ data: 'x'.repeat(20_000) });
      res.writeHead(200, { 'Content-Length': Buffer.byteLength(text) }).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('bench throughput load', () => {
  for (const path of ['/sized', '/chunked']) {
    it(`counts every completed ${path} response`, async () => {
      served = 0;
      seen.length = 0;
      const { completed, perSecond } = await throughput({ port, next: () => ({ method: 'POST', path, headers: { Authorization: 'Bearer t' }, body: '{"a":1}' }) }, 4, 300);
      expect(served).toBeGreaterThan(20);
      expect(completed).toBe(served);
      expect(perSecond).toBeGreaterThan(completed); // 300 ms of load
      expect(new Set(seen)).toEqual(new Set([`POST ${path} Bearer t {"a":1}`]));
    });
  }

  it('fails on an error status instead of counting it', async () => {
    await expect(throughput({ port, next: () => ({ method: 'GET', path: '/fail', headers: {} }) }, 1, 200)).rejects.toThrow(/500.*boom/);
  });
});

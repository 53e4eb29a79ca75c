// A real SMTP server for the mail tests (issue 53): smtp-server on port 0 with
// STARTTLS on a certificate made for the test and AUTH (one user and password),
// refusing recipients at refused.example, each message read back with
// mailparser. And two servers that misbehave on a raw socket: one that drops
// the connection in the middle of the message, one that never greets.
import { createServer, type Server, type Socket } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { atFileEnd } from './file-end';
import { certificate } from './certificate';

export const SMTP_USER = 'books@hartley.example';
export const SMTP_PASSWORD = 'a sealed smtp password 53';

export interface Received {
  parsed: ParsedMail;
  /** The envelope's recipients, as the server took them. */
  rcpt: string[];
  /** The id the server answered with ("queued as <id>"). */
  queueId: string;
}

export interface TestSmtp {
  port: number;
  certFile: string;
  received: Received[];
  close(): Promise<void>;
}

let queued = 0;

/** `secure`: TLS from the first byte (as on port 465) instead of STARTTLS. */
export async function smtpServer(options: { secure?: boolean } = {}): Promise<TestSmtp> {
  const { key, cert, certFile } = certificate();
  const received: Received[] = [];
  const server = new SMTPServer({
    key,
    cert,
    // STARTTLS offered on a plain connection; AUTH only once it is encrypted (the default).
    secure: options.secure ?? false,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    // The tests' own relay on loopback: no reverse DNS look-up of 127.0.0.1 (without a resolver it waits out a timeout).
    disableReverseLookup: true,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) callback(null, { user: auth.username });
      else callback(Object.assign(new Error('Authentication failed'), { responseCode: 535 }));
    },
    onRcptTo(address, _session, callback) {
      if (address.address.endsWith('@refused.example')) callback(Object.assign(new Error(`<${address.address}>: Recipient address rejected`), { responseCode: 550 }));
      else callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const queueId = `Q${++queued}`;
          received.push({ parsed, rcpt: session.envelope.rcptTo.map((r) => r.address), queueId });
          callback(null, `OK: queued as ${queueId}`);
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  atFileEnd(close);
  return { port, certFile, received, close };
}

/** A raw SMTP server without TLS or AUTH that takes the envelope, then drops the connection once the message starts. */
export async function droppingServer(): Promise<number> {
  return rawServer((socket) => {
    socket.write('220 drop.example ESMTP\r\n');
    let data = false;
    socket.on('data', (chunk: Buffer) => {
      if (data) return socket.destroy();
      for (const line of chunk.toString('latin1').split('\r\n').filter(Boolean)) {
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250-drop.example\r\n250 8BITMIME\r\n');
        else if (verb === 'DATA') {
          data = true;
          socket.write('354 go ahead\r\n');
        } else socket.write('250 OK\r\n');
      }
    });
  });
}

/** A port on loopback where nothing listens (a connection to it is refused). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A server that accepts the connection and never says a word. */
export const silentServer = (): Promise<number> => rawServer(() => undefined);

async function rawServer(onConnection: (socket: Socket) => void): Promise<number> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    onConnection(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  atFileEnd(
    () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  );
  return (server.address() as { port: number }).port;
}

// The ways a firm runs the server (docs/deploy.md): the Dockerfile, compose.yaml
// with its PostgreSQL set-up, and the systemd unit. Where a Docker engine answers,
// the image is built and run; where none does (these machines: the client only),
// the image's steps are run as a script instead, which this test says: the final
// stage's production install, exactly the files it copies from the build, its
// environment and command, as its non-root user, until its own HEALTHCHECK passes.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, cpSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Copy, DockerfileParser, type Dockerfile } from 'dockerfile-ast';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { tempDir } from './support/env';
import { atFileEnd } from './support/file-end';
import { startPostgres } from './support/postgres';

const root = join(import.meta.dirname, '..');
const dockerfile = DockerfileParser.parse(readFileSync(join(root, 'Dockerfile'), 'utf8'));
const dockerAnswers = spawnSync('docker', ['info'], { encoding: 'utf8' }).status === 0;

/** The final stage's instructions (after its FROM). */
function finalStage(file: Dockerfile) {
  const froms = file.getFROMs();
  const start = froms[froms.length - 1].getRange().start.line;
  return file.getInstructions().filter((i) => i.getRange().start.line >= start);
}
const stage = finalStage(dockerfile);
const words = (keyword: string) => stage.filter((i) => i.getKeyword() === keyword);
/** An exec-form instruction's array (CMD, HEALTHCHECK CMD). */
const execForm = (text: string): string[] => JSON.parse(text.replace(/^CMD\s+/, '').replace(/\\\n/g, '')) as string[];
const envOf = () => Object.fromEntries(words('ENV').flatMap((i) => i.getArguments().map((a) => a.getValue().split('=') as [string, string])));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '0.0.0.0', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Runs the image's HEALTHCHECK command as written, against the port the server listens on. */
function healthCheck(port: number, env: NodeJS.ProcessEnv): number | null {
  const [command, ...args] = execForm(
    words('HEALTHCHECK')[0]
      .getArgumentsContent()!
      .replace(/^.*?CMD\s+/s, ''),
  );
  expect(command).toBe('node');
  return spawnSync(process.execPath, args, { env: { ...env, LEDGERDESK_PORT: String(port) }, timeout: 10_000 }).status;
}

async function until(what: string, check: () => Promise<boolean> | boolean, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before ${what}:\n${output()}`);
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no ${what} within a minute:\n${output()}`);
}

describe('the Dockerfile', () => {
  it('builds in stages from pinned images and runs the headless server as a user that is not root, with a health check', () => {
    for (const from of dockerfile.getFROMs()) expect(from.getImageTag(), from.getImage() ?? undefined).toMatch(/^\d+\.\d+/);
    expect(dockerfile.getFROMs().length).toBeGreaterThan(1);
    expect(words('USER').map((u) => u.getArgumentsContent())).toEqual(['node']);
    expect(words('HEALTHCHECK')).toHaveLength(1);
    const cmd = execForm(words('CMD')[0].getArgumentsContent()!);
    expect(cmd.slice(0, 3)).toEqual(['node', 'bin/ledgerdesk.mjs', 'serve']);
    expect(`0.0.0.0:${words('EXPOSE')[0].getArgumentsContent()}`).toBe(cmd[cmd.indexOf('--listen') + 1]);
    for (const run of dockerfile.getInstructions().filter((i) => i.getKeyword() === 'RUN')) {
      const text = run.getArgumentsContent() ?? '';
      if (/apt-get install/.test(text)) expect(text).toMatch(/--no-install-recommends[\s\S]*rm -rf \/var\/lib\/apt\/lists/);
    }
    expect(dockerfile.getInstructions().filter((i) => i.getKeyword() === 'ADD')).toEqual([]);
    expect(Object.keys(envOf()).filter((name) => /PASSWORD|SECRET|TOKEN|KEY/.test(name))).toEqual([]);
  });

  it(
    dockerAnswers
      ? 'builds and runs as an image that passes its own health check'
      : 'runs as its final stage (no Docker engine here: its steps as a script) and passes its own health check',
    async () => {
      const port = await freePort();
      let child: ChildProcess;
      let output = '';
      const env = { ...envOf(), LEDGERDESK_PUBLIC_URL: 'https://books.firm.example', PATH: process.env.PATH };
      if (dockerAnswers) {
        expect(spawnSync('docker', ['build', '-t', 'ledgerdesk:test', root], { stdio: 'inherit' }).status).toBe(0);
        child = spawn('docker', ['run', '--rm', '-p', `127.0.0.1:${port}:7311`, '-e', `LEDGERDESK_PUBLIC_URL=${env.LEDGERDESK_PUBLIC_URL}`, 'ledgerdesk:test']);
      } else {
        console.log("No Docker engine answers here: the Dockerfile's final stage is run as a script (its install, files, environment, command and user).");
        const app = tempDir('ldk-image-');
        chmodSync(app, 0o755);
        cpSync(join(root, 'package.json'), join(app, 'package.json'));
        cpSync(join(root, 'package-lock.json'), join(app, 'package-lock.json'));
        // The build stage's `npm ci` then `npm prune --omit=dev`: the production dependencies alone.
        const install = spawnSync('npm', ['ci', '--omit=dev', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: app, encoding: 'utf8' });
        expect(install.status, install.stderr).toBe(0);
        // Its `npm rebuild better-sqlite3`, for this machine's Node: the binary this checkout built.
        cpSync(
          join(root, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'),
          join(app, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'),
        );
        for (const copy of words('COPY') as Copy[]) {
          const [from, to] = copy.getArguments().map((a) => a.getValue());
          expect(copy.getFromFlag()?.getValue()).toBe('build');
          if (from === '/app/node_modules' || from === '/app/package.json') continue;
          const target = to.endsWith('/') ? join(app, to, from.split('/').pop()!) : join(app, to);
          cpSync(join(root, from.replace(/^\/app\//, '')), target, { recursive: true });
        }
        const data = tempDir('ldk-image-data-');
        const asRoot = process.getuid?.() === 0;
        if (asRoot) chownSync(data, 1000, 1000);
        const cmd = execForm(words('CMD')[0].getArgumentsContent()!).map((arg) => arg.replace(':7311', `:${port}`));
        const user = asRoot ? ['setpriv', '--reuid=1000', '--regid=1000', '--clear-groups', '--'] : [];
        const command = [...user, process.execPath, ...cmd.slice(1)];
        child = spawn(command[0], command.slice(1), { cwd: app, env: { ...env, LEDGERDESK_DATA: data, HOME: data } });
      }
      child.stdout!.on('data', (c) => (output += c));
      child.stderr!.on('data', (c) => (output += c));
      atFileEnd(() => void child.kill('SIGKILL'));
      await until(
        'health',
        () => healthCheck(port, env) === 0,
        child,
        () => output,
      );
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(ready.status).toBe(200);
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    },
    240_000,
  );
});

describe('compose.yaml', () => {
  const compose = parseYaml(readFileSync(join(root, 'compose.yaml'), 'utf8')) as {
    services: Record<
      string,
      { environment?: Record<string, string>; ports?: string[]; depends_on?: Record<string, { condition: string }>; healthcheck?: unknown; volumes?: string[] }
    >;
  };

  it('starts the server once PostgreSQL is healthy, reachable on the host loopback alone, with no secret written in it', () => {
    const { db, ledgerdesk } = compose.services;
    expect(db.healthcheck).toBeDefined();
    expect(ledgerdesk.depends_on?.db.condition).toBe('service_healthy');
    expect(ledgerdesk.ports?.every((p) => p.startsWith('127.0.0.1:'))).toBe(true);
    // A password is a reference to .env (`${NAME}`), never a value; no URL carries one.
    for (const [name, value] of [...Object.entries(db.environment ?? {}), ...Object.entries(ledgerdesk.environment ?? {})]) {
      if (/PASSWORD|SECRET|KEY/.test(name)) expect(value, name).toMatch(/^\$\{[A-Z_]+(:\?[^}]*)?\}$/);
      expect(value, name).not.toMatch(/:\/\/[^@/]*:[^@/]*@/);
    }
  });

  it("sets up PostgreSQL so that the server's URL opens the books: its init script on a new cluster, then the server ready", async () => {
    const cluster = startPostgres({ superuser: 'postgres' });
    atFileEnd(() => cluster.stop());
    const init = spawnSync('sh', [join(root, 'deploy', 'postgres-init.sh')], {
      encoding: 'utf8',
      env: {
        ...process.env,
        PATH: `${cluster.bin}:${process.env.PATH}`,
        PGHOST: cluster.socketDir,
        PGPORT: String(cluster.port),
        POSTGRES_USER: 'postgres',
        LEDGERDESK_DB_PASSWORD: 'a long test password',
      },
    });
    expect(init.status, init.stderr).toBe(0);
    const url = compose.services.ledgerdesk.environment!.LEDGERDESK_DATABASE_URL.replace(
      '@db:5432/books',
      `@localhost/books?host=${encodeURIComponent(cluster.socketDir)}&port=${cluster.port}`,
    );
    const port = await freePort();
    const child = spawn(process.execPath, [join(root, 'bin', 'ledgerdesk.mjs'), 'serve', '--port', String(port)], {
      cwd: root,
      env: { ...process.env, LEDGERDESK_DATABASE_URL: url, PGPASSWORD: 'a long test password', LEDGERDESK_HEADLESS: '1' },
    });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    atFileEnd(() => void child.kill('SIGKILL'));
    await until(
      'readiness',
      async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null))?.status === 200,
      child,
      () => output,
    );
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 120_000);
});

describe('the systemd unit', () => {
  it('is a unit systemd reads without a complaint, running the server as its own user', () => {
    const unit = join(root, 'deploy', 'ledgerdesk.service');
    const verify = spawnSync('systemd-analyze', ['verify', unit], { encoding: 'utf8' });
    expect({ status: verify.status, complaints: verify.stderr.trim() }).toEqual({ status: 0, complaints: '' });
    const text = readFileSync(unit, 'utf8');
    expect(text).toMatch(/^User=ledgerdesk$/m);
    expect(text).toMatch(/^ExecStart=\/usr\/bin\/node \/opt\/ledgerdesk\/bin\/ledgerdesk\.mjs serve /m);
  });
});

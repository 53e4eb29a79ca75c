// `npm run lint`: ESLint and Prettier's check side by side (each is one process on one core, and ESLint's typed
// rules take most of the time), each one's output printed whole when it ends; fails when either does.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const run = (command, args) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    child.on('close', (code) => {
      process.stdout.write(output);
      resolve(code ?? 1);
    });
  });

const codes = await Promise.all([run(bin('eslint'), ['--max-warnings', '0', '.']), run(bin('prettier'), ['--check', '.'])]);
process.exit(codes.some((c) => c !== 0) ? 1 : 0);

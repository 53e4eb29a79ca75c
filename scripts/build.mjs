// `npm run build` (and `npm install`, through `prepare`): everything the app
// runs, built from src/ into out/:
//   out/main, out/preload, out/renderer   the desktop app and the screens (electron-vite)
//   out/cli                               the `ledgerdesk` command and headless server (esbuild)
// `--cli` builds only the command (what bin/ledgerdesk.mjs does when the sources changed).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cliOnly = process.argv.includes('--cli');

function screens() {
  const built = spawnSync(process.execPath, [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

/** zod's messages in English only: its 40-odd other languages were half of what a command compiled at start. */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${join('node_modules', 'zod')}`) ? { path: 'zod-locales', namespace: 'zod-english-only' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, () => ({ contents: "export { default as en } from 'zod/v4/locales/en.js';", resolveDir: root }));
  },
};

/**
 * The groups of desk operations: the modules src/main/desk/operations.ts imports a `...Operations` from (the one
 * list of them). Each is an entry of its own, so that an owner command loads its group alone (commands.json).
 */
function operationGroups() {
  const desk = join(root, 'src', 'main', 'desk');
  const list = readFileSync(join(desk, 'operations.ts'), 'utf8');
  const groups = {};
  for (const [, names, from] of list.matchAll(/^import \{([^}]*)\} from '(\.{1,2}\/[^']+)';$/gm)) {
    if (!names.split(',').some((n) => /^\s*\w+Operations\s*$/.test(n))) continue;
    const file = resolve(desk, `${from}.ts`);
    const name = relative(join(root, 'src', 'main'), file)
      .replace(/\.ts$/, '')
      .replaceAll('\\', '/');
    groups[`operations/${name}`] = file;
  }
  return groups;
}

/** Run in the new build: each owner command's name, the module and export its operation is in (the operations' own `command`). */
const MANIFEST = `
const [dir, ...modules] = process.argv.slice(1);
const commands = {};
for (const module of modules) {
  const exported = await import(new URL(module, 'file://' + dir + '/'));
  for (const [group, operations] of Object.entries(exported)) {
    if (!group.endsWith('Operations') || typeof operations !== 'object') continue;
    for (const [operation, o] of Object.entries(operations)) if (o.command) commands[o.command.name] = { module, group, operation };
  }
}
process.stdout.write(JSON.stringify(commands));
`;

/**
 * The command as ES modules, one chunk per part it loads on demand (help and
 * agent commands never load the database driver or the servers). Packages are
 * bundled, except native code and what is loaded at run time only when needed.
 */
async function cli() {
  const { build } = await import('esbuild');
  const out = join(root, 'out', 'cli');
  const next = `${out}.${process.pid}.next`;
  rmSync(next, { recursive: true, force: true });
  const result = await build({
    entryPoints: { index: join(root, 'src', 'cli', 'index.ts'), ...operationGroups() },
    outdir: next,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // better-sqlite3: native; drizzle-orm: required lazily by db.ts when a migration is due; pdfjs: loaded per PDF
    // read; pdfkit: loaded per PDF written, and it reads its font metrics from beside its own files (__dirname).
    external: ['better-sqlite3', 'drizzle-orm', 'drizzle-orm/*', 'pdfjs-dist', 'pdfjs-dist/*', 'pdfkit', 'electron'],
    // Bundled CommonJS packages (express) require Node's own modules.
    banner: { js: "import { createRequire as __ldkRequire } from 'node:module'; const require = __ldkRequire(import.meta.url);" },
    logLevel: 'warning',
    legalComments: 'none',
    // Smaller code compiles faster at every start; names stay readable in a stack trace.
    minifyWhitespace: true,
    minifySyntax: true,
    plugins: [zodEnglishOnly],
    metafile: true,
  });
  // Which chunk holds what and loads what: test/built.test.ts checks from it that help and agent commands stay light.
  writeFileSync(join(next, 'meta.json'), JSON.stringify(result.metafile));
  // An owner command finds its operation here and loads that group only (src/cli/commands.ts).
  const groupFiles = Object.keys(operationGroups()).map((g) => `${g}.js`);
  const manifest = spawnSync(process.execPath, ['--input-type=module', '-e', MANIFEST, next, ...groupFiles], { cwd: root, encoding: 'utf8' });
  if (manifest.status !== 0) throw new Error(`the built operations do not load: ${manifest.stderr}`);
  writeFileSync(join(next, 'commands.json'), manifest.stdout);
  // `ledgerdesk --help` reads its text from here instead of loading every command's definition.
  const help = spawnSync(process.execPath, [join(next, 'index.js'), 'help'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, LEDGERDESK_HELP_FILE: '', LEDGERDESK_DATA: '@@LEDGERDESK_DATA@@' },
  });
  if (help.status !== 0) throw new Error(`the built command does not run: ${help.stderr}`);
  writeFileSync(join(next, 'help.txt'), help.stdout);
  // Swapped in whole, so a command started meanwhile sees the old build or the new one.
  mkdirSync(dirname(out), { recursive: true });
  const old = `${out}.${process.pid}.old`;
  try {
    renameSync(out, old);
  } catch {
    /* no earlier build */
  }
  renameSync(next, out);
  rmSync(old, { recursive: true, force: true });
}

if (!cliOnly) screens();
await cli();

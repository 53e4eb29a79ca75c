import react from '@vitejs/plugin-react';
import { defineConfig, externalizeDepsPlugin } from 'electron-vite';
import { resolve } from 'node:path';
import { CONTENT_SECURITY_POLICY } from './src/shared/web';

/** The page's CSP meta tag from the one definition (frame-ancestors is ignored in a meta tag: the headers carry it). */
const csp = { name: 'ledgerdesk-csp', transformIndexHtml: (html: string) => html.replace('%LEDGERDESK_CSP%', CONTENT_SECURITY_POLICY.replace(/ frame-ancestors 'none';/, '')) };

/** The screens run in a sandboxed page: a Node module reaching them (through a runtime import of main-process code) fails the build. */
const screensOnly = {
  name: 'ledgerdesk-no-node-in-screens',
  enforce: 'pre' as const,
  resolveId(id: string, importer?: string) {
    if (id.startsWith('node:')) throw new Error(`The screens import ${id} (from ${importer}): import main-process modules as types only, or move plain code to src/shared.`);
    return null;
  },
};

export default defineConfig({
  main: {
    plugins: [externalizeDepsPlugin()],
    build: { rollupOptions: { input: { index: resolve(__dirname, 'src/main/index.ts') } } },
  },
  preload: {
    plugins: [externalizeDepsPlugin()],
    // Sandboxed preloads are classic scripts: CommonJS, whatever the package type.
    build: {
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].js' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    plugins: [screensOnly, react(), csp],
    build: { minify: true, rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } } },
  },
});

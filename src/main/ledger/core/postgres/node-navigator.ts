// Node 21 and later answer `navigator.userAgent` with 'Node.js/<major>'; Node 20 has no navigator. node-postgres asks
// at load time whether it runs in a Cloudflare Worker, and without a navigator it finds out by constructing a fetch
// Response, which loads Node's fetch (undici): 40-70 ms and a garbage collection at the start of every command on a
// server's books. Node 20 is shown Node 21's answer while pg loads (./node-postgres), and the global is then removed.
const lent = typeof (globalThis as { navigator?: unknown }).navigator === 'undefined';
if (lent) Object.defineProperty(globalThis, 'navigator', { value: { userAgent: `Node.js/${process.versions.node.split('.')[0]}` }, configurable: true });

/** Takes the lent navigator back once pg has loaded. */
export function returnNavigator(): void {
  if (lent) delete (globalThis as { navigator?: unknown }).navigator;
}

// What the books count as they go (issue 51): proposals made and reviewed, and,
// when they exist, syncs and jobs. Each is declared once here, one line, with the
// labels it carries; the domain says `counted(name, labels)` once its write has
// committed, and whoever watches (the server's Prometheus metrics, when they are
// on: service/metrics.ts) turns each declaration into a counter. Nobody
// watching, it costs a function call: the desktop and commands load nothing.

export const COUNTED = {
  proposals_created: { help: 'Proposals made (agents through REST or MCP, a preparer at the desk), by kind and channel', labels: ['type', 'channel'] },
  proposals_reviewed: { help: 'Proposals approved or rejected by a person, by kind and decision', labels: ['type', 'decision'] },
} as const;

export type Counted = keyof typeof COUNTED;
type Labels<N extends Counted> = Record<(typeof COUNTED)[N]['labels'][number], string>;

const watchers = new Set<(name: Counted, labels: Record<string, string>) => void>();

/** Tells every watcher that `name` happened once (after its write committed). */
export function counted<N extends Counted>(name: N, labels: Labels<N>): void {
  for (const watch of watchers) watch(name, labels);
}

/** Tells `fn` of every counted event from now on (the metrics); answers what stops telling it. */
export function watchCounted(fn: (name: Counted, labels: Record<string, string>) => void): () => void {
  watchers.add(fn);
  return () => watchers.delete(fn);
}

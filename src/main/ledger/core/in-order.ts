// Async callbacks over a list, one after another: a write's steps keep their
// order (positions, numbers) and a transaction's queries never interleave.
export async function mapInOrder<T, R>(items: readonly T[], fn: (item: T, index: number) => Promise<R> | R): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i++) out.push(await fn(items[i], i));
  return out;
}

export async function flatMapInOrder<T, R>(items: readonly T[], fn: (item: T, index: number) => Promise<R | readonly R[]> | R | readonly R[]): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i++) {
    const r = await fn(items[i], i);
    if (Array.isArray(r)) out.push(...(r as R[]));
    else out.push(r as R);
  }
  return out;
}

/** The items an async predicate keeps, asked one after another. */
export async function filterInOrder<T>(items: readonly T[], keep: (item: T, index: number) => Promise<boolean> | boolean): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < items.length; i++) if (await keep(items[i], i)) out.push(items[i]);
  return out;
}

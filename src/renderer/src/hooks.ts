import { useCallback, useEffect, useRef, useState } from 'react';

export interface Loaded<T> {
  data?: T;
  error?: Error;
  loading: boolean;
  reload: () => void;
}

/** Loads with `load`, again when `deps` change, and every `pollMs` while mounted (quietly). */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[], pollMs?: number): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: Error; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  const latest = useRef(0);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  useEffect(() => {
    const run = (quiet: boolean) => {
      const id = ++latest.current;
      if (!quiet) setState((s) => ({ ...s, loading: true }));
      load().then(
        (data) => id === latest.current && setState({ data, loading: false }),
        (error: Error) => id === latest.current && setState((s) => ({ data: quiet ? s.data : undefined, error, loading: false })),
      );
    };
    run(false);
    if (!pollMs) return;
    const timer = setInterval(() => run(true), pollMs);
    return () => clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller's deps stand for `load`, a new closure on every render
  }, [...deps, tick]);
  return { ...state, reload };
}

/** Filter fields ('' = not set) and the page offset, which any filter change resets. */
export function useFilters<T extends Record<string, string>>(empty: T) {
  const [filters, setFilters] = useState(empty);
  const [offset, setOffset] = useState(0);
  const set = (key: keyof T) => (value: string) => {
    setFilters((f) => ({ ...f, [key]: value }));
    setOffset(0);
  };
  const reset = () => {
    setFilters(empty);
    setOffset(0);
  };
  const query = Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== '')) as Partial<T>;
  return { filters, set, reset, offset, setOffset, query, key: JSON.stringify(query) };
}

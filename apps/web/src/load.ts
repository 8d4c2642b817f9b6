import { useCallback, useEffect, useState } from 'react';
import { ApiError } from './api/client';

export interface Loaded<T> {
  data?: T;
  error?: ApiError;
  loading: boolean;
  reload: () => void;
}

/** Runs `load` when `deps` change (and on reload), keeping the last answer while the next one loads. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: ApiError; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  const run = useCallback(load, deps);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    run().then(
      (data) => live && setState({ data, loading: false }),
      (error: unknown) =>
        live &&
        setState({
          error:
            error instanceof ApiError
              ? error
              : new ApiError(500, {
                  type: 'about:blank',
                  title: 'Error',
                  status: 500,
                  detail: String(error),
                }),
          loading: false,
        }),
    );
    return () => {
      live = false;
    };
  }, [run, tick]);
  return { ...state, reload: () => setTick((t) => t + 1) };
}

import { useEffect, useRef, useState } from 'react';
import { ApiError, watch, type WatchEvent } from './api/client';

type Target = { namespace: string; name?: string };

/**
 * Follows a watch stream while mounted: reconnects after a dropped stream
 * (backing off up to 10 s), and stops for good on 401/403/404. `onConnect`
 * runs on each (re)connection, before its replayed events.
 */
export function useWatch(
  target: Target,
  onEvent: (e: WatchEvent) => void,
  onConnect?: () => void,
): { live: boolean; error?: ApiError } {
  const [state, setState] = useState<{ live: boolean; error?: ApiError }>({ live: false });
  const handlers = useRef({ onEvent, onConnect });
  handlers.current = { onEvent, onConnect };
  const { namespace, name } = target;
  useEffect(() => {
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let delay = 1000;
    const path = name
      ? '/api/v1/namespaces/{namespace}/applications/{name}/watch'
      : '/api/v1/namespaces/{namespace}/applications/watch';
    const connect = () => {
      watch(
        path,
        { namespace, name },
        (e) => handlers.current.onEvent(e),
        abort.signal,
        () => {
          delay = 1000;
          handlers.current.onConnect?.();
          setState({ live: true });
        },
      )
        .then(
          () => setState((s) => ({ ...s, live: false })),
          (error: ApiError) => {
            setState({ live: false, error });
            if ([401, 403, 404].includes(error.status)) return 'stop';
          },
        )
        .then((stop) => {
          if (abort.signal.aborted || stop === 'stop') return;
          timer = setTimeout(connect, delay);
          delay = Math.min(delay * 2, 10_000);
        });
    };
    connect();
    return () => {
      abort.abort();
      clearTimeout(timer);
    };
  }, [namespace, name]);
  return state;
}

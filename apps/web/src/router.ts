import { useSyncExternalStore } from 'react';

// Hash routes (#/apps/web): the API serves one index.html, so no server-side fallback is needed.
function read(): string {
  return location.hash.replace(/^#/, '') || '/';
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

/** The current route: its path segments and query parameters. */
export function useRoute(): { parts: string[]; query: URLSearchParams } {
  const hash = useSyncExternalStore(subscribe, read);
  const [path, search = ''] = hash.split('?');
  return {
    parts: path.split('/').filter(Boolean).map(decodeURIComponent),
    query: new URLSearchParams(search),
  };
}

export function href(path: string): string {
  return `#${path}`;
}

export function navigate(path: string): void {
  location.hash = path;
}

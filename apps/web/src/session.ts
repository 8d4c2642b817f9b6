// The API token is kept for this tab only (sessionStorage), never in a URL or localStorage.
const TOKEN = 'oam.token';
const NAMESPACE = 'oam.namespace';

type Listener = () => void;
const listeners = new Set<Listener>();
let notice = '';

export const session = {
  token: (): string | null => sessionStorage.getItem(TOKEN),
  namespace: (): string => sessionStorage.getItem(NAMESPACE) ?? 'default',
  /** Why the user was signed out, shown on the sign-in form. */
  notice: (): string => notice,
  signIn(token: string): void {
    sessionStorage.setItem(TOKEN, token);
    notice = '';
    listeners.forEach((l) => l());
  },
  signOut(why = ''): void {
    if (!sessionStorage.getItem(TOKEN) && notice === why) return;
    sessionStorage.removeItem(TOKEN);
    notice = why;
    listeners.forEach((l) => l());
  },
  setNamespace(ns: string): void {
    sessionStorage.setItem(NAMESPACE, ns);
    listeners.forEach((l) => l());
  },
  subscribe(l: Listener): () => void {
    listeners.add(l);
    return () => listeners.delete(l);
  },
};

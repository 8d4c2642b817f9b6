import { useState, type FormEvent } from 'react';
import { ApiError } from '../api/client';
import { session } from '../session';
import { ProblemView } from '../parts/Problem';

/** Asks for the API token (`oam server` prints where it is) and checks it before keeping it for this tab. */
export function SignIn() {
  const [token, setToken] = useState('');
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const notice = session.notice();

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      // Any call that needs a token tells whether it is valid; the catalog is open to every valid token.
      await fetch(`${location.origin}/api/v1/catalog/components`, {
        headers: { Authorization: `Bearer ${token.trim()}` },
      }).then(
        async (res) => {
          if (!res.ok) throw new ApiError(res.status, await res.json());
        },
        (err: Error) => {
          throw new ApiError(0, {
            type: 'about:blank',
            title: 'API not reachable',
            status: 0,
            detail: `cannot reach the API at ${location.origin} (${err.message}); is \`oam server\` running?`,
          });
        },
      );
      session.signIn(token.trim());
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="signin">
      <h1>OAM catalog</h1>
      <form onSubmit={submit} aria-label="Sign in">
        <p>
          Sign in with an API token. On the local plane, <code>oam server</code> prints the file that holds it
          (<code>~/.oam/api-tokens.yaml</code>). It is kept for this tab only.
        </p>
        {notice && !error && (
          <p className="notice" role="status">
            {notice}
          </p>
        )}
        <label htmlFor="token">API token</label>
        <input
          id="token"
          type="password"
          autoComplete="off"
          value={token}
          onChange={(e) => setToken(e.target.value)}
          required
          autoFocus
        />
        <button type="submit" disabled={busy || !token.trim()}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        {error && (
          <ProblemView error={error} title={error.status === 401 ? 'That token is not valid' : undefined} />
        )}
      </form>
    </main>
  );
}

import { lazy, Suspense, useSyncExternalStore, useState, type FormEvent } from 'react';
import { session } from './session';
import { href, useRoute } from './router';
import { SignIn } from './pages/SignIn';
import { Catalog } from './pages/Catalog';
import { TypePage } from './pages/TypePage';
import { AppList } from './pages/AppList';
import { AppPage } from './pages/AppPage';
import { Loading } from './parts/Problem';

// The form pages carry react-jsonschema-form and its validator: loaded when first opened.
const CreatePage = lazy(() => import('./pages/Compose').then((m) => ({ default: m.CreatePage })));
const EditPage = lazy(() => import('./pages/Compose').then((m) => ({ default: m.EditPage })));

function useSession() {
  const token = useSyncExternalStore(session.subscribe, session.token);
  const namespace = useSyncExternalStore(session.subscribe, session.namespace);
  return { token, namespace };
}

function NamespacePicker({ namespace }: { namespace: string }) {
  const [value, setValue] = useState(namespace);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (value.trim()) session.setNamespace(value.trim());
  };
  return (
    <form className="ns" onSubmit={submit}>
      <label htmlFor="namespace">Namespace</label>
      <input
        id="namespace"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        onBlur={submit}
        size={12}
      />
    </form>
  );
}

function Page({ namespace }: { namespace: string }) {
  const { parts, query } = useRoute();
  const [first, second, third] = parts;
  if (first === 'new')
    return (
      <CreatePage key={query.get('type') ?? ''} namespace={namespace} type={query.get('type') ?? undefined} />
    );
  if (first === 'apps' && second && third === 'edit') return <EditPage namespace={namespace} name={second} />;
  if (first === 'apps' && second) return <AppPage key={second} namespace={namespace} name={second} />;
  if (first === 'apps') return <AppList namespace={namespace} />;
  if (first === 'types' && (second === 'component' || second === 'trait') && third)
    return <TypePage kind={second} name={third} namespace={namespace} />;
  return <Catalog namespace={namespace} />;
}

export function App() {
  const { token, namespace } = useSession();
  const { parts } = useRoute();
  if (!token) return <SignIn />;
  const section = parts[0] === 'apps' ? 'apps' : parts[0] === 'new' ? 'new' : 'catalog';
  return (
    <>
      <a
        className="skip"
        href="#content"
        onClick={(e) => {
          e.preventDefault();
          document.getElementById('content')?.focus();
        }}
      >
        Skip to content
      </a>
      <header className="top">
        <span className="brand">OAM</span>
        <nav aria-label="Main">
          <a href={href('/')} aria-current={section === 'catalog' ? 'page' : undefined}>
            Catalog
          </a>
          <a href={href('/apps')} aria-current={section === 'apps' ? 'page' : undefined}>
            Applications
          </a>
          <a href={href('/new')} aria-current={section === 'new' ? 'page' : undefined}>
            New application
          </a>
        </nav>
        <NamespacePicker key={namespace} namespace={namespace} />
        <button type="button" className="link" onClick={() => session.signOut('Signed out.')}>
          Sign out
        </button>
      </header>
      <div id="content" tabIndex={-1}>
        <Suspense fallback={<Loading what="the page" />}>
          <Page namespace={namespace} />
        </Suspense>
      </div>
    </>
  );
}

import { Suspense, lazy, useCallback, useEffect, useState } from 'react';
import { Link, Route, Router, Switch } from 'wouter';
import type { AdminSessionInfo } from '../shared/admin';
import { canEdit as canEditRole } from '../shared/team';
import { Announcer } from './announcer';
import { ApiError, onSignedOut } from './api';
import { ApplicationsView } from './applications-list';
import { readSession, signOut as endSession } from './features/session/api';
import { SignIn } from './sign-in';

// The views besides the list are chunks of their own, read when first opened: the inbox's first
// chunk stays under Vite's 500 kB warning (the detail brings React Aria's dialog, the notes and tags).
const ApplicationDetailView = lazy(() => import('./application-detail').then((module) => ({ default: module.ApplicationDetailView })));
const FunnelView = lazy(() => import('./funnel-view'));
const SummaryView = lazy(() => import('./summary-view'));
// The campaign pages' builder: the list, and the editor with the configuration's checks and dnd-kit.
const PagesListView = lazy(() => import('./pages/pages-list'));
const PageEditorView = lazy(() => import('./pages/page-editor'));
const IntegrationsView = lazy(() => import('./integrations-view'));
const EmailView = lazy(() => import('./email-view'));
const PrivacyView = lazy(() => import('./privacy-view'));
const TeamView = lazy(() => import('./team-view'));
const AccountView = lazy(() => import('./account-view'));
const ChoosePassword = lazy(() => import('./choose-password').then((module) => ({ default: module.ChoosePassword })));

/** The pages an invitation's and a reset's links open, shown whether or not someone is signed in (docs/inbox.md, "The team"). */
const LINK_PAGES: Record<string, 'invitation' | 'reset'> = { '/admin/invitation': 'invitation', '/admin/reset-password': 'reset' };

type SessionState = { state: 'loading' } | { state: 'signed-out'; expired: boolean } | { state: 'signed-in'; session: AdminSessionInfo };

/**
 * The brand's inbox: the sign-in form until a session exists, then
 * the applications list, an application's detail, the summary, the funnel, the
 * campaign pages' builder and the integrations (webhooks), under /admin.
 */
export function App() {
  const [session, setSession] = useState<SessionState>({ state: 'loading' });
  const [loadError, setLoadError] = useState<string>();
  const [linkPage, setLinkPage] = useState(() => LINK_PAGES[window.location.pathname.replace(/\/$/, '')]);

  const load = useCallback(() => {
    readSession().then(
      (info) => setSession({ state: 'signed-in', session: info }),
      (error: unknown) => {
        if (error instanceof ApiError && error.status === 401) setSession({ state: 'signed-out', expired: false });
        else setLoadError('The inbox cannot reach the server. Check the connection and reload.');
      },
    );
  }, []);
  useEffect(load, [load]);
  useEffect(() => onSignedOut(() => setSession({ state: 'signed-out', expired: true })), []);

  const signOut = async () => {
    await endSession();
    setSession({ state: 'signed-out', expired: false });
  };

  if (linkPage)
    return (
      <Suspense fallback={<p aria-busy="true">Loading…</p>}>
        <ChoosePassword
          kind={linkPage}
          onSignedIn={() => {
            setLinkPage(undefined);
            load();
          }}
        />
      </Suspense>
    );
  if (loadError)
    return (
      <p role="alert" className="page-error">
        {loadError}
      </p>
    );
  if (session.state === 'loading')
    return (
      <p className="loading" aria-busy="true">
        Loading…
      </p>
    );
  // A half-signed-in session (a second factor to give) starts again at the sign-in.
  if (session.state === 'signed-out' || session.session.stage === 'second-factor')
    return <SignIn expired={session.state === 'signed-out' && session.expired} onSignedIn={load} />;
  const canEdit = canEditRole(session.session.role);
  const isOwner = session.session.role === 'owner';
  // Where the team requires a second factor and this member has none: setting one up is all there is.
  if (session.session.stage === 'enrol')
    return (
      <main id="main">
        <Suspense fallback={<p aria-busy="true">Loading…</p>}>
          <AccountView enrolling onEnrolled={load} />
        </Suspense>
        <p>
          <button type="button" className="secondary" onClick={() => void signOut()}>
            Sign out
          </button>
        </p>
        <Announcer />
      </main>
    );
  return (
    <Router base="/admin">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="top-bar">
        <span className="brand">Applications inbox</span>
        <nav aria-label="Inbox">
          <Link href="/">Applications</Link>
          <Link href="/summary">Summary</Link>
          <Link href="/funnel">Funnel</Link>
          <Link href="/pages">Pages</Link>
          <Link href="/integrations">Integrations</Link>
          <Link href="/email">E-mail</Link>
          <Link href="/privacy">Privacy</Link>
          {isOwner ? <Link href="/team">Team</Link> : null}
        </nav>
        <Link className="who" href="/account" aria-label={`Your account: ${session.session.email}`}>
          {session.session.email}
          {canEdit ? '' : ' (read only)'}
        </Link>
        <button type="button" className="secondary" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      <main id="main">
        <Switch>
          <Route path="/">
            <ApplicationsView canEdit={canEdit} />
          </Route>
          <Route path="/applications/:id">
            {(params) => (
              <Suspense fallback={<p aria-busy="true">Loading the application…</p>}>
                <ApplicationDetailView key={params.id} id={params.id} canEdit={canEdit} userEmail={session.session.email} />
              </Suspense>
            )}
          </Route>
          <Route path="/summary">
            <Suspense fallback={<p aria-busy="true">Loading the summary…</p>}>
              <SummaryView />
            </Suspense>
          </Route>
          <Route path="/funnel">
            <Suspense fallback={<p aria-busy="true">Loading the funnel…</p>}>
              <FunnelView />
            </Suspense>
          </Route>
          <Route path="/pages">
            <Suspense fallback={<p aria-busy="true">Loading the pages…</p>}>
              <PagesListView canEdit={canEdit} />
            </Suspense>
          </Route>
          <Route path="/pages/:id">
            {(params) => (
              <Suspense fallback={<p aria-busy="true">Loading the page…</p>}>
                <PageEditorView key={params.id} id={params.id} canEdit={canEdit} />
              </Suspense>
            )}
          </Route>
          <Route path="/integrations">
            <Suspense fallback={<p aria-busy="true">Loading the integrations…</p>}>
              <IntegrationsView canEdit={isOwner} />
            </Suspense>
          </Route>
          <Route path="/privacy">
            <Suspense fallback={<p aria-busy="true">Loading…</p>}>
              <PrivacyView canEdit={canEdit} />
            </Suspense>
          </Route>
          <Route path="/team">
            <Suspense fallback={<p aria-busy="true">Loading the team…</p>}>
              {isOwner ? <TeamView userEmail={session.session.email} /> : <p role="alert">Only the team’s owners manage the team.</p>}
            </Suspense>
          </Route>
          <Route path="/account">
            <Suspense fallback={<p aria-busy="true">Loading your account…</p>}>
              <AccountView enrolling={false} onEnrolled={load} />
            </Suspense>
          </Route>
          {/* The e-mail's own links to the member's settings say /notifications: the same view. */}
          {['/email', '/notifications'].map((path) => (
            <Route key={path} path={path}>
              <Suspense fallback={<p aria-busy="true">Loading the e-mail…</p>}>
                <EmailView />
              </Suspense>
            </Route>
          ))}
          <Route>
            <h1>Not found</h1>
            <p>
              <Link href="/">Back to the applications</Link>
            </p>
          </Route>
        </Switch>
        {/* One polite live region for every view, kept while they replace each other (decision 020). */}
        <Announcer />
      </main>
    </Router>
  );
}

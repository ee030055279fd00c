import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { Link } from 'wouter';
import type { PageDetail } from '../../shared/pages';
import { ApiError } from '../api';
import { announce } from '../announcer';
import { errorsOf, failureText } from '../api';
import { erasesOf, staleOf, usePage, usePublish } from '../features/pages/api';
import { formatDateTime } from '../format';
import { saveText, useAutosave } from './autosave';
import { checkDraft } from './checks';
import { enclosingPaths, fieldId, isObject, jsonPath, setAt, tabOf, type DraftPath, type EditorTab } from './draft';
import { EditorProvider, teamHint, type Problem } from './fields';
import { ListKeys } from './keys';
import { PageSettings } from './page-settings';
import { PreviewPane } from './preview-pane';
import { removeElement, removalExtras } from './removal';
import { useFreshSummary, usePageState } from './page-state';
import { placeOf } from './places';
import { Publishing } from './publishing';
import { LivePageLink } from './live-page-link';
import { StepsEditor } from './steps-editor';
import { JsonEditor, MessagesEditor, unparsedProblem } from './texts-and-json';
import './pages.css';

/**
 * A campaign page in the builder (`/admin/pages/{id}`): its draft loaded once, then
 * edited here (autosaved), checked as it changes, previewed beside, and published. "Load their
 * version" (after someone else saved the page) loads it again from the server.
 */
export default function PageEditorView({ id, canEdit }: { id: string; canEdit: boolean }) {
  const page = usePage(id);
  const [loads, setLoads] = useState(0);
  if (page.isPending) return <p aria-busy="true">Loading the page…</p>;
  // A failed read again (on focus) keeps the editor and what it holds: only a first read that failed is shown.
  if (page.isError && page.data === undefined) {
    const missing = page.error instanceof ApiError && page.error.status === 404;
    return (
      <>
        <h1>{missing ? 'No such page' : 'The page cannot be loaded'}</h1>
        <p role="alert">{missing ? `There is no stored page "${id}".` : failureText(page.error)}</p>
        <p>
          <Link href="/pages">Back to the pages</Link>
        </p>
      </>
    );
  }
  return (
    <Editor
      key={loads}
      page={page.data}
      canEdit={canEdit}
      onReload={async () => {
        await page.refetch();
        setLoads((count) => count + 1);
        announce('Their version is loaded.');
      }}
    />
  );
}

/** Whether two JSON paths are one inside the other (a change at one may mend a problem at the other). */
const related = (one: string, other: string) =>
  one === other || one.startsWith(`${other}.`) || one.startsWith(`${other}[`) || other.startsWith(`${one}.`) || other.startsWith(`${one}[`);

const TAB_NAMES: Record<EditorTab, string> = { page: 'Page', steps: 'Steps', messages: 'Messages', publishing: 'Publishing', json: 'JSON' };

function Editor({ page, canEdit, onReload }: { page: PageDetail; canEdit: boolean; onReload: () => Promise<void> }) {
  const [draft, setDraft] = useState<unknown>(page.draft);
  const [keys] = useState(() => new ListKeys());
  const [tab, setTab] = useState<EditorTab>('page');
  const [serverProblems, setServerProblems] = useState<Problem[]>([]);
  const [published, setPublished] = useState('');
  const autosave = useAutosave({ id: page.id, draft, revision: page.revision, updatedAt: page.updatedAt, enabled: canEdit });
  const { touch } = autosave;

  // The last removal, offered to be undone until the next change.
  const [undo, setUndo] = useState<{ message: string; before: unknown; restored: () => void; landing: () => void }>();
  const undoButton = useRef<HTMLButtonElement>(null);

  // The step the last change was in (its settings or blocks): the preview shows it.
  const [editedStep, setEditedStep] = useState<number>();

  const change = useCallback(
    (path: DraftPath, value: unknown) => {
      setDraft((before: unknown) => setAt(before, path, value));
      // A step's settings or blocks, or its cover image (covers go with the steps in order): the preview shows that step.
      setEditedStep((path[0] === 'steps' || path[0] === 'coverImages') && typeof path[1] === 'number' ? path[1] : undefined);
      const at = jsonPath(path);
      setServerProblems((before) => (before.length === 0 ? before : before.filter((problem) => !related(problem.path, at))));
      setUndo(undefined);
      touch();
    },
    [touch],
  );

  const remove = useCallback(
    (path: DraftPath, index: number, name: string, after: { restored: () => void; landing: () => void }) => {
      const removal = removeElement(draft, path, index);
      setDraft(removal.draft);
      setServerProblems((before) =>
        before.length === 0 ? before : before.filter((problem) => !related(problem.path, jsonPath(path)) && !related(problem.path, 'formItems')),
      );
      touch();
      const message = `Removed ${name}${removalExtras(removal)}.`;
      setUndo({ message, before: draft, ...after });
      announce(`${message} Undo is offered.`);
      requestAnimationFrame(() => undoButton.current?.focus());
    },
    [draft, touch],
  );

  // The checks run on the draft a moment behind the typing when the machine is busy (React's deferred value).
  const checked = useDeferredValue(draft);
  const checks = useMemo(() => checkDraft(checked, page.id), [checked, page.id]);
  // JSON text that does not parse: the draft stays as it was, but the team's edit is not in it: a problem (Publish waits).
  const [unparsed, setUnparsed] = useState<string>();
  const problems = useMemo(
    () => [...(unparsed === undefined ? [] : [unparsedProblem(unparsed)]), ...checks, ...serverProblems, ...autosave.refused],
    [unparsed, checks, serverProblems, autosave.refused],
  );

  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  /** Shows the field of a problem: its tab, its folded section opened, then focused (the whole configuration's JSON when no form shows it). */
  const goTo = useCallback((path: string) => {
    setTab(tabOf(path));
    const focus = (fallback: boolean) => {
      const element = enclosingPaths(path)
        .map((candidate) => document.getElementById(fieldId(candidate)))
        .find((found) => found !== null);
      if (!element) {
        if (fallback) {
          setTab('json');
          requestAnimationFrame(() => requestAnimationFrame(() => document.getElementById(fieldId('(root)'))?.focus()));
        }
        return;
      }
      for (let details = element.closest('details'); details; details = details.parentElement?.closest('details') ?? null) details.open = true;
      element.focus();
      element.scrollIntoView({ block: 'center' });
    };
    requestAnimationFrame(() => requestAnimationFrame(() => focus(true)));
  }, []);

  const publish = usePublish(
    page.id,
    // What is typed is saved first: the revision published is the one stored.
    async () => {
      if (!(await autosave.flush())) throw new Error('the draft is not saved yet');
      return autosave.revision();
    },
    {
      onSuccess: ({ version }) => {
        setServerProblems([]);
        setPublished(`Version ${version} is published.`);
        announce(`Version ${version} is published.`);
      },
      onError: (error) => {
        const stale = staleOf(error);
        if (stale) return autosave.conflict(stale);
        // A shorter retention: said, and published only on a yes (what it erases cannot come back).
        if (erasesOf(error) !== undefined && window.confirm(`${failureText(error)}\n\nErase them and publish?`)) return publish.mutate({ eraseExpired: true });
        const errors = errorsOf(error);
        setServerProblems(errors);
        setPublished(`Not published: ${failureText(error)}${errors.length > 0 ? ' The problems are listed below and shown at their fields.' : ''}`);
      },
    },
  );

  const current = useFreshSummary(page);
  const served = usePageState(current);
  const title = isObject(draft) && typeof draft.title === 'string' && draft.title ? draft.title : page.id;
  const state = autosave.state;
  const blocked =
    problems.length > 0
      ? `Fix the ${problems.length === 1 ? 'problem' : `${problems.length} problems`} below before publishing.`
      : state.kind === 'conflict'
        ? 'Load their version before publishing.'
        : '';
  return (
    <div className="page-editor">
      <p className="crumbs">
        <Link href="/pages">Pages</Link> › {page.id}
      </p>
      <div className="editor-head">
        <h1 ref={heading} tabIndex={-1}>
          {title}
        </h1>
        <p className="page-meta">
          <span className={`badge page-${served.badge}`}>{served.text}</span>{' '}
          {current.publishedVersion ? `· version ${current.publishedVersion} ${served.open ? 'served' : 'published'} ` : ''}· {current.applications} application
          {current.applications === 1 ? '' : 's'} <LivePageLink page={current} />
        </p>
        {canEdit ? (
          <>
            <p className="save-state" role="status" aria-live="polite">
              {saveText(state)}
            </p>
            <div className="publish-row">
              <button
                type="button"
                disabled={blocked !== '' || publish.isPending}
                aria-describedby={blocked ? 'publish-blocked' : undefined}
                onClick={() => publish.mutate({})}
              >
                {publish.isPending ? 'Publishing…' : 'Publish'}
              </button>
              {blocked ? (
                <span id="publish-blocked" className="hint">
                  {blocked}
                </span>
              ) : null}
            </div>
            <p className="said" role="status">
              {published}
            </p>
          </>
        ) : (
          <p className="notice">You can read this page; only editors change or publish it.</p>
        )}
      </div>
      {state.kind === 'conflict' ? (
        <div className="conflict" role="alert">
          <p>
            <strong>{state.stale.updatedBy}</strong> changed this page at {formatDateTime(state.stale.updatedAt)}, after you opened it. Your changes since then
            are not saved, so that neither of you overwrites the other.
          </p>
          <div className="conflict-actions">
            <button type="button" onClick={() => void onReload()}>
              Load their version
            </button>
            <button type="button" className="secondary" onClick={() => autosave.overwrite(state.stale.revision)}>
              Save mine over theirs
            </button>
          </div>
        </div>
      ) : null}
      <ProblemSummary problems={problems} goTo={goTo} draft={draft} canEdit={canEdit} />
      <div className="editor-layout">
        <div className="editor-main">
          <EditorProvider draft={draft} change={change} remove={remove} readOnly={!canEdit || state.kind === 'conflict'} problems={problems}>
            <Tabs selectedKey={tab} onSelectionChange={(key) => setTab(key as EditorTab)}>
              <TabList aria-label="Parts of the page" className="tab-list">
                {(Object.keys(TAB_NAMES) as EditorTab[]).map((key) => (
                  <Tab key={key} id={key} className="tab">
                    {TAB_NAMES[key]}
                  </Tab>
                ))}
              </TabList>
              <TabPanel id="page" className="tab-panel">
                <PageSettings pageId={page.id} saved={autosave.state.kind === 'saved'} />
              </TabPanel>
              <TabPanel id="steps" className="tab-panel">
                <StepsEditor keys={keys} />
              </TabPanel>
              <TabPanel id="messages" className="tab-panel">
                <MessagesEditor />
              </TabPanel>
              <TabPanel id="publishing" className="tab-panel">
                <Publishing page={page} canEdit={canEdit} />
              </TabPanel>
              <TabPanel id="json" className="tab-panel">
                <JsonEditor onUnparsed={setUnparsed} />
              </TabPanel>
            </Tabs>
          </EditorProvider>
          {undo ? (
            <div className="undo-bar" role="group" aria-label="Last removal">
              <p id="undo-message">{undo.message}</p>
              <button
                type="button"
                ref={undoButton}
                aria-describedby="undo-message"
                onClick={() => {
                  setDraft(undo.before);
                  touch();
                  setUndo(undefined);
                  undo.restored();
                  announce(`Undone: ${undo.message.replace(/^Removed/, 'restored').replace(/\.$/, '')}.`);
                }}
              >
                Undo
              </button>
              <button
                type="button"
                className="secondary"
                onClick={() => {
                  setUndo(undefined);
                  requestAnimationFrame(undo.landing);
                }}
              >
                Dismiss
              </button>
            </div>
          ) : null}
        </div>
        <PreviewPane pageId={page.id} draft={draft} saved={autosave.state.kind === 'saved'} onProblem={goTo} follow={editedStep} />
      </div>
    </div>
  );
}

/** The draft's problems, each a link named by its field's place and label that shows and focuses the field; the JSON path after, for experts. */
function ProblemSummary({ problems, goTo, draft, canEdit }: { problems: Problem[]; goTo: (path: string) => void; draft: unknown; canEdit: boolean }) {
  if (problems.length === 0) {
    return (
      <p className="no-problems" id="problem-summary">
        {canEdit ? 'No problems: the page can be published.' : 'No problems found in this page.'}
      </p>
    );
  }
  return (
    <section className="problem-summary" aria-labelledby="problem-summary">
      <h2 id="problem-summary">{problems.length === 1 ? 'One problem to fix' : `${problems.length} problems to fix`}</h2>
      <ul>
        {problems.map((problem, index) => (
          <li key={`${index}:${problem.path}`}>
            <a
              href={`#${fieldId(problem.path)}`}
              onClick={(event) => {
                event.preventDefault();
                goTo(problem.path);
              }}
            >
              {placeOf(problem.path, draft)}
            </a>
            : {problem.message}
            {teamHint(problem.hint) ? ` (${problem.hint})` : ''} <span className="problem-path">{problem.path}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

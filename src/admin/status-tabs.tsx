import { Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import type { ReactNode } from 'react';
import { APPLICATION_STATUSES, type ApplicationStatus } from '../shared/admin';
import { useApplicationCounts } from './features/applications/api';
import type { ViewFilters } from './features/keys';
import { STATUS_LABELS, formatCount } from './format';

/** The tabs: every status, then all. */
const TABS = [...APPLICATION_STATUSES, 'all'] as const;
type TabKey = (typeof TABS)[number];

/**
 * The list's status tabs with live counts: New, Shortlisted, Accepted, Declined and All,
 * each with how many applications the other filters match (`GET /applications/counts`), and the
 * total of the current view. WAI-ARIA tabs from React Aria Components (arrow keys move between
 * them, each names its count); choosing one sets the `status` filter, kept in the address.
 * @param filters - the list's filters, as in the address.
 * @param onChange - called with the chosen status, or `''` for all.
 * @param children - the list under the tabs: the chosen tab's panel.
 */
export function StatusTabs({ filters, onChange, children }: { filters: ViewFilters; onChange: (status: ApplicationStatus | '') => void; children: ReactNode }) {
  const counts = useApplicationCounts(filters);
  const status = typeof filters.status === 'string' ? filters.status : '';
  const selected: TabKey = (APPLICATION_STATUSES as readonly string[]).includes(status) ? (status as ApplicationStatus) : 'all';
  const count = (key: TabKey) => (counts.data ? formatCount(String(counts.data[key])) : '…');
  return (
    <div className="status-tabs">
      <Tabs selectedKey={selected} onSelectionChange={(key) => onChange(key === 'all' ? '' : (key as ApplicationStatus))}>
        <TabList aria-label="Status" className="tab-list">
          {TABS.map((key) => (
            <Tab key={key} id={key} className="tab">
              {key === 'all' ? 'All' : STATUS_LABELS[key]} <span className="tab-count">{count(key)}</span>
            </Tab>
          ))}
        </TabList>
        <p className="view-total" aria-live="polite">
          {counts.data ? `${formatCount(String(counts.data[selected]))} ${counts.data[selected] === 1 ? 'application' : 'applications'} in this view` : ''}
        </p>
        {/* The list is the chosen tab's panel (each tab controls it while chosen). */}
        <TabPanel id={selected}>{children}</TabPanel>
      </Tabs>
    </div>
  );
}

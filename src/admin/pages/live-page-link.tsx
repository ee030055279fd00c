import { livePagePath } from '../../shared/pages';

/**
 * "View live page": the page as applicants see it, in a new tab (`livePagePath`: `/` for the
 * default page, `/?page={id}` for another), for a page that has been published; nothing for one
 * never published. Named after its page where several are listed (`title`, and `id` where pages
 * share a title), and said to open a new tab.
 */
export function LivePageLink({ page, title }: { page: { id: string; default?: boolean | undefined; publishedVersion: number | null }; title?: string }) {
  const path = livePagePath(page);
  if (!path) return null;
  return (
    <a
      href={path}
      target="_blank"
      rel="noopener"
      className="live-page-link"
      aria-label={`View live page${title ? `: ${title} (${page.id})` : ''} (opens in a new tab)`}
    >
      View live page
    </a>
  );
}

import { FLAG_SIZE, flagUrl } from '../../shared/data/flags';

/**
 * A country's flag: flag-icons' SVG file as an image of its own, fetched only when
 * shown (`loading="lazy"`: an option scrolled into the list, the picked country). Decorative
 * (`alt=""`): the country's name beside it is what assistive technology reads, and an image that
 * does not arrive draws nothing, never a broken-image icon. Never an emoji, which a system without
 * an emoji font draws as empty boxes or letter pairs.
 */
export function Flag({ country }: { country: string }) {
  return <img className="flag" src={flagUrl(country)} alt="" width={FLAG_SIZE.width} height={FLAG_SIZE.height} loading="lazy" decoding="async" />;
}

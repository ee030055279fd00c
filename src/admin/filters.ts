import { ApplicationFilterSchema } from '../shared/admin';
import { PLATFORM_LABELS, type PlatformName } from '../shared/platforms';
import { STATUS_LABELS, countryName } from './format';

/**
 * The list's filters as the address holds them (`?q=…&status=…`): every filter of
 * `ApplicationFilterSchema`, so a view that reads them follows the list as its filters grow.
 */
export type AddressFilters = Record<string, string | undefined>;

/** The names of the list's filters, from its schema. */
export const ADDRESS_FILTER_NAMES: readonly string[] = Object.keys(ApplicationFilterSchema.shape);

/** The list's filters in the current address; values left empty are left out. */
export function filtersInAddress(search = window.location.search): AddressFilters {
  const params = new URLSearchParams(search);
  return Object.fromEntries(ADDRESS_FILTER_NAMES.flatMap((name) => (params.get(name) ? [[name, params.get(name)!]] : [])));
}

/** How a filter reads in a sentence: `Country: France`, `Received from: 2026-11-01`. */
export function describeFilter(name: string, value: string): string {
  switch (name) {
    case 'q':
      return `Search: “${value}”`;
    case 'status':
      return `Status: ${STATUS_LABELS[value as keyof typeof STATUS_LABELS] ?? value}`;
    case 'platform':
      return `Platform: ${PLATFORM_LABELS[value as PlatformName] ?? value}`;
    case 'country':
      return `Country: ${countryName(value)}`;
    case 'from':
      return `Received from: ${value}`;
    case 'to':
      return `Received to: ${value}`;
    case 'pageId':
      return `Page: ${value}`;
    default:
      return `${name}: ${value}`;
  }
}

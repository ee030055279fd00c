// In the live preview (the builder's frame) this module is replaced by src/wizard/preview/phone-metadata-fetch.ts (src/wizard/preview/replaced.ts).
import type { MetadataJson } from 'libphonenumber-js/core';
import { phoneMetadataUrl } from './phone-metadata';

/**
 * Fetches one calling code's metadata file (src/shared/phone-metadata.ts) from the built wizard:
 * how the browser's phone.ts gets the numbering plans an answer needs. The builder's preview, which
 * sends no request, puts its own module here (vite.preview.config.ts).
 * @param code - an ITU calling code of the metadata (`44`, `1`, `800`).
 * @throws Error when the file cannot be fetched or read (offline, a 404).
 */
export async function fetchPhoneMetadata(code: string): Promise<MetadataJson> {
  const response = await fetch(phoneMetadataUrl(code));
  if (!response.ok) throw new Error(`${phoneMetadataUrl(code)}: ${response.status}`);
  return (await response.json()) as MetadataJson;
}

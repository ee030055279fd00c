import type { MetadataJson } from 'libphonenumber-js/core';
import { fullPhoneMetadata, phoneMetadataFor } from '../../shared/phone-metadata';

/**
 * The preview's `fetchPhoneMetadata` (vite.preview.config.ts puts it where phone.ts imports the
 * browser's; the preview sends no request): a calling code's numbering plans cut from
 * the whole metadata, which the preview's build carries in a chunk of its own, as the build cuts the
 * public wizard's files.
 * @throws Error for a code the metadata does not have.
 */
export async function fetchPhoneMetadata(code: string): Promise<MetadataJson> {
  const part = phoneMetadataFor(await fullPhoneMetadata(), code);
  if (!part) throw new Error(`No phone metadata for +${code}`);
  return part;
}

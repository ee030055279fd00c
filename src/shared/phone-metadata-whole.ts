/**
 * libphonenumber-js's whole `min` metadata (83 KB, 19 KB gzip), the one source of the phone rule's
 * numbering plans: imported lazily by the server (`fullPhoneMetadata` in phone-metadata.ts), and by
 * the build, which splits it into a file per calling code for the browser (vite.config.ts).
 */
export { default } from 'libphonenumber-js/min/metadata';

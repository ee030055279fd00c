/**
 * The parts of libphonenumber-js that phone.ts uses, without metadata (phone.ts passes its own:
 * the whole `min` metadata on the server, each calling code's file in the browser), in one module
 * that phone.ts imports lazily: the browser downloads only these, after the first paint.
 */
export { isValidPhoneNumber, parseIncompletePhoneNumber, parsePhoneNumberFromString } from 'libphonenumber-js/core';

/**
 * The parts of libphonenumber-js that phone.ts uses, with its smallest metadata (`min`), in one
 * module that phone.ts imports lazily: the browser downloads only these, after the first paint.
 */
export { isValidPhoneNumber, parsePhoneNumberFromString } from 'libphonenumber-js/core';
export { default as metadata } from 'libphonenumber-js/min/metadata';

/**
 * What the wizard's build gives for `prop-types` (docs/decisions/034, "Room in the budget"): downshift
 * declares its components' prop types with it and checks them only outside production, and React
 * 19 never reads `propTypes`, so in the built page every validator is inert. The package's own
 * production build (`factoryWithThrowingShims`) is such shims too, with a long error message for a
 * direct call that nothing here makes: 383 bytes gzip of the whole flow, this one a tenth of it.
 * Only the names downshift reads; each is callable and has `isRequired`, as the package's are.
 */
const inert = Object.assign(() => null, { isRequired: () => null });

export default { any: inert, array: inert, bool: inert, func: inert, number: inert, string: inert, shape: () => inert, checkPropTypes: () => undefined };

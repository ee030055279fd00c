/**
 * What the wizard's build gives for `prop-types` (docs/decisions/034, "Room in the budget"): downshift
 * declares its components' prop types with it and checks them only outside production, and React
 * 19 never reads `propTypes`, so in the built page every validator is inert. The package's own
 * production build (`factoryWithThrowingShims`) is such shims too, with a long error message for a
 * direct call that nothing here makes: 383 bytes gzip of the whole flow, this one a few dozen.
 * Every name read of it (`PropTypes.func`, `.shape({…})`, `.isRequired`) is the same inert
 * validator, which returns itself when called.
 */
type Inert = (() => Inert) & { isRequired: Inert };
const inert = (() => inert) as Inert;
inert.isRequired = inert;

export default new Proxy(inert, { get: () => inert });

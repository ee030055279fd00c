/**
 * mixpanel-browser's core build (no session recorder, requirements §11), in a module
 * of its own so the lazily loaded chunk is recognisable (`mixpanel-*.js`).
 */
import mixpanel, { type OverridedMixpanel } from 'mixpanel-browser/dist/mixpanel-core.cjs';

export type Mixpanel = OverridedMixpanel;
export default mixpanel;

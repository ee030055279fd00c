import * as z from 'zod/mini';

// zod/mini ships without messages ('Invalid input'); load the English locale so
// configuration and payload problems say what was expected ('expected array').
z.config(z.locales.en());

export { z };

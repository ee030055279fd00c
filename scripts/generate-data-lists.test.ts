// @vitest-environment node
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { OUTPUT_PATH, renderDataLists } from './generate-data-lists';

it('the committed data lists equal what the data packages generate (run npm run generate:data)', () => {
  expect(readFileSync(OUTPUT_PATH, 'utf8')).toBe(renderDataLists());
});

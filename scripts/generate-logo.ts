/**
 * Writes the example brand's logo and favicon (the page looks like the brand's own
 * product): `public/images/logo.svg` (a putty tin seen from above, then the brand's name) and
 * `public/images/favicon.svg` (the tin alone).
 *
 * The name is drawn as outlines of Nunito ExtraBold (SIL Open Font License 1.1, the wizard's own
 * font, from `@fontsource-variable/nunito`), shaped by HarfBuzz, so the logo looks the same in every
 * browser and as an `<img>`, which cannot use the page's fonts. Run `npm run generate:logo` after
 * changing the name or the colours; the outputs are committed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fontverter from 'fontverter';
import * as hb from 'harfbuzzjs';

/** The example brand's colours: its purple (the default theme's primary), the putty's teal, a yellow. */
const PURPLE = '#5a2d82';
const TEAL = '#2fb8b0';
const YELLOW = '#f5c542';
const PINK = '#ff6fa8';

/** The tin, in a 40 × 40 box: lid rim, putty swirl with a highlight, and a bead of colour. */
const MARK = [
  `<circle cx="20" cy="20" r="19" fill="${PURPLE}"/>`,
  `<circle cx="20" cy="20" r="14.5" fill="#fff" opacity=".18"/>`,
  `<circle cx="20" cy="20" r="12.5" fill="${TEAL}"/>`,
  `<path d="M20 11.5c4.8 0 8.5 3.6 8.5 8.2 0 3.9-3 6.8-6.6 6.8-3 0-5.2-2.2-5.2-4.9 0-2.2 1.7-3.9 3.8-3.9 1.6 0 2.8 1.1 2.8 2.6" fill="none" stroke="#fff" stroke-width="2.6" stroke-linecap="round" opacity=".9"/>`,
  `<circle cx="13.2" cy="14.6" r="2.6" fill="${YELLOW}"/>`,
  `<circle cx="12.6" cy="24.8" r="1.8" fill="${PINK}"/>`,
].join('');

/**
 * The outline of `text` in Nunito at weight `weight` and `size` px, its baseline at `y`, from `x`.
 * @returns the SVG path data and the text's advance width (px).
 */
async function outline(text: string, x: number, y: number, size: number, weight: number): Promise<{ d: string; width: number }> {
  const file = fileURLToPath(new URL('../node_modules/@fontsource-variable/nunito/files/nunito-latin-wght-normal.woff2', import.meta.url));
  const sfnt = await fontverter.convert(readFileSync(file), 'sfnt');
  const face = new hb.Face(new hb.Blob(new Uint8Array(sfnt)));
  const font = new hb.Font(face);
  font.setVariations([new hb.Variation('wght', weight)]);
  const buffer = new hb.Buffer();
  buffer.addText(text);
  buffer.guessSegmentProperties();
  hb.shape(font, buffer);
  const scale = size / face.upem;
  const positions = buffer.getGlyphPositions();
  let pen = 0;
  const parts = buffer.getGlyphInfos().map((glyph, index) => {
    const position = positions[index]!;
    const originX = x + (pen + position.xOffset) * scale;
    pen += position.xAdvance;
    // Font units grow upwards; SVG's y grows downwards.
    const path = font.glyphToPath(glyph.codepoint).replace(
      /-?\d+(?:\.\d+)?(?:e-?\d+)?/g,
      (() => {
        let axis = 0;
        return (number: string) => {
          const value = Number(number) * scale;
          const mapped = axis++ % 2 === 0 ? originX + value : y - value;
          return String(Math.round(mapped * 100) / 100);
        };
      })(),
    );
    return path;
  });
  return { d: parts.join(''), width: pen * scale };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const name = "Crazy Aaron's";
  const word = await outline(name, 50, 27.5, 21, 800);
  const width = Math.ceil(50 + word.width + 2);
  const logo =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="40" viewBox="0 0 ${width} 40" role="img" aria-label="${name}">` +
    `<title>${name}</title>${MARK}<path d="${word.d}" fill="${PURPLE}"/></svg>\n`;
  const favicon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40">${MARK}</svg>\n`;
  const out = fileURLToPath(new URL('../public/images/', import.meta.url));
  writeFileSync(`${out}logo.svg`, logo);
  writeFileSync(`${out}favicon.svg`, favicon);
  console.log(`logo.svg ${logo.length} bytes (${width} × 40), favicon.svg ${favicon.length} bytes`);
}

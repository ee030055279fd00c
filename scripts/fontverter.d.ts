/** fontverter 2 ships no types: the one function `scripts/generate-logo.ts` calls. */
declare module 'fontverter' {
  /**
   * Converts a font file between formats.
   * @param font - the font file's bytes (TrueType/OpenType, WOFF or WOFF2).
   * @param to - the format wanted (`sfnt` is TrueType/OpenType).
   * @returns the converted file's bytes.
   */
  export function convert(font: Uint8Array, to: 'sfnt' | 'truetype' | 'woff' | 'woff2'): Promise<Buffer>;
  const fontverter: { convert: typeof convert };
  export default fontverter;
}

/** The regional indicator symbols 🇦 to 🇿: every flag emoji is a pair of them. */
export const REGIONAL_INDICATORS = String.fromCodePoint(...Array.from({ length: 26 }, (_, index) => 0x1f1e6 + index));

/** The class of the element {@link warmUpGlyphs} lays out (styles.css: invisible, out of the flow). */
export const GLYPH_PROBE_CLASS = 'glyph-probe';

/**
 * Has the browser lay out `text` once, invisibly, in the page's font, so that a step which
 * shows such characters later does not pay for finding their font while the applicant waits
 * (issue 12). The flags of the phone's calling code and the Country select are emoji that the
 * page's font lacks: their first layout has the browser look for a font that has them (the
 * system's emoji font, or on a system without one every font, in vain). In the bench's
 * Chromium with the CPU 4× slower that was some 15 ms of the layout of Welcome → step 1, whose
 * calling code shows a flag. The browser keeps what it found for the page's font and size for
 * the page's life: laying the flags' characters out once will do.
 *
 * The probe (`aria-hidden`, `visibility: hidden`, out of the flow) goes at the end of the body,
 * is laid out with the next frame, as anything else added, and is removed in the task after it:
 * this function forces no layout of its own.
 */
export function warmUpGlyphs(text: string): void {
  if (typeof document === 'undefined' || !document.body) return;
  const probe = document.createElement('span');
  probe.className = GLYPH_PROBE_CLASS;
  probe.setAttribute('aria-hidden', 'true');
  probe.textContent = text;
  document.body.append(probe);
  requestAnimationFrame(() => setTimeout(() => probe.remove(), 0));
}

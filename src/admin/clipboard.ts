/**
 * Copies `text` to the clipboard (the Clipboard API, which a page served over plain HTTP from
 * another host than localhost does not have).
 * @returns whether it was copied: false where there is no clipboard or the browser refused, so
 *   that the caller selects the text to be copied by hand.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * CSS that keeps an element's text from a reader, beyond the properties that say so outright
 * (display, visibility, font-size, opacity, mso-hide, white type: html.ts):
 * - the element is moved off the page: `position:absolute` or `fixed` with `left`, `top` or
 *   `margin-left` at -999px or further, or `text-indent` at -999px or further;
 * - its box has no height and hides what overflows: `height:0` or `max-height:0` with
 *   `overflow:hidden`; or `clip: rect(0...)` / `clip-path: inset(50%...)` cuts it to nothing;
 * - a `<style>` rule does any of these (or the outright ones) to a class or an id
 *   (`.h{display:none}` then `<span class="h">`): mail HTML carries its styles in the head. Only
 *   rules at the top level and with one simple selector are read (not those in `@media`, which
 *   may be for print).
 * Spam hides words so, inside and between the words a reader sees, to change its fingerprint.
 */

const LAYOUT_PROPERTY =
  /(?:^|[;\s"'{])(position|left|top|margin-left|text-indent|height|max-height|overflow|overflow-y|clip|clip-path)\s*:\s*([^;!}]*)/gi;
const FAR_NEGATIVE = /^-\s*(\d+(?:\.\d+)?)\s*(px|pt|em|rem)?$/;
const ZERO_LENGTH = /^0(?:\.0+)?(?:px|pt|em|rem|%)?$/;
const CLIPPED_TO_NOTHING =
  /^(?:rect\(\s*0(?:px)?[\s,]+0(?:px)?[\s,]+0(?:px)?[\s,]+0(?:px)?\s*\)|inset\(\s*(?:50|100)%\s*\))/;

/** Whether a length is far enough to the left or top to leave the page (-999px, -60em). */
function offPage(value: string): boolean {
  const m = FAR_NEGATIVE.exec(value);
  if (!m) return false;
  const amount = Number(m[1]);
  const unit = m[2] ?? 'px';
  return unit === 'em' || unit === 'rem' ? amount >= 60 : amount >= 999;
}

/** Whether an inline style (or a rule's declarations) hides its element's text by layout. */
export function layoutConceals(style: string): boolean {
  let positioned = false;
  let moved = false;
  let indented = false;
  let noHeight = false;
  let overflowHidden = false;
  let clipped = false;
  LAYOUT_PROPERTY.lastIndex = 0;
  for (let m = LAYOUT_PROPERTY.exec(style); m !== null; m = LAYOUT_PROPERTY.exec(style)) {
    const property = (m[1] as string).toLowerCase();
    const value = (m[2] as string).trim().toLowerCase();
    if (property === 'position') positioned = value === 'absolute' || value === 'fixed';
    else if (property === 'left' || property === 'top' || property === 'margin-left')
      moved ||= offPage(value);
    else if (property === 'text-indent') indented ||= offPage(value);
    else if (property === 'height' || property === 'max-height') noHeight ||= ZERO_LENGTH.test(value);
    else if (property === 'overflow' || property === 'overflow-y')
      overflowHidden = value.startsWith('hidden');
    else clipped ||= CLIPPED_TO_NOTHING.test(value);
  }
  return (positioned && moved) || indented || (noHeight && overflowHidden) || clipped;
}

const SIMPLE_SELECTOR = /^[a-z0-9]*([.#])([\w-]+)$/i;

/** The CSS without its comments (an unclosed one runs to the end). */
function withoutComments(css: string): string {
  let out = '';
  let from = 0;
  for (let open = css.indexOf('/*'); open >= 0; open = css.indexOf('/*', from)) {
    out += css.slice(from, open);
    const close = css.indexOf('*/', open + 2);
    if (close < 0) return out;
    from = close + 2;
  }
  return out + css.slice(from);
}

/**
 * The class and id names that `<style>` rules hide (with `conceals`, which reads a rule's
 * declarations the way inline styles are read): `.name` and `tag.name` selectors as ".name",
 * `#id` ones as "#id". Selectors with combinators or pseudo-classes are left (an element matches
 * them only in some places, or only on hover). One pass over the rules: linear in the style's length.
 */
export function concealedSelectors(css: string, conceals: (declarations: string) => boolean): string[] {
  const names: string[] = [];
  const text = withoutComments(css);
  // Rules at the top level only: one inside @media applies to some screens or to print.
  let depth = 0;
  let start = 0; // where the current top-level selector or block starts
  let selectors = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b /* { */) {
      if (depth === 0) {
        selectors = text.slice(start, i);
        start = i + 1;
      }
      depth++;
    } else if (c === 0x7d /* } */ && depth > 0) {
      depth--;
      if (depth === 0) {
        if (!selectors.trimStart().startsWith('@') && conceals(text.slice(start, i))) {
          for (const selector of selectors.split(',')) {
            const m = SIMPLE_SELECTOR.exec(selector.trim());
            if (m) names.push(`${m[1]}${(m[2] as string).toLowerCase()}`);
          }
        }
        start = i + 1;
      }
    }
  }
  return names;
}

/** Whether an element with these id and class attributes is one a `<style>` rule hides. */
export function matchesConcealed(
  concealed: ReadonlySet<string>,
  id: string | undefined,
  classes: string | undefined,
): boolean {
  if (id !== undefined && concealed.has(`#${id.trim().toLowerCase()}`)) return true;
  if (classes === undefined) return false;
  for (const name of classes.toLowerCase().split(/\s+/))
    if (name !== '' && concealed.has(`.${name}`)) return true;
  return false;
}

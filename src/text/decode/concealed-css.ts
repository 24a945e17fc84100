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
  // Most styles have no negative value, height or clip: substring searches instead of the property scan.
  if (!style.includes(':-') && !style.includes(': -') && !style.includes('height') && !style.includes('clip'))
    return false;
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

/** Words every concealing declaration holds one of: rules without any are not read further. */
const CONCEALING_WORDS = /none|hidden|clip|opacity|font-size|mso-hide|indent|-\s*\d/i;

/** Whether the declarations text[start, end) may conceal (a cheap test before the full reading). */
function mayConceal(text: string, start: number, end: number): boolean {
  return CONCEALING_WORDS.test(text.slice(start, end));
}

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
  const text = css.includes('/*') ? withoutComments(css) : css;
  // Rules at the top level only: one inside @media applies to some screens or to print. The
  // braces are found by indexOf (stylesheets of real pages run to tens of kilobytes).
  let depth = 0;
  let start = 0; // where the current top-level selector or block starts
  let selectors = '';
  let open = text.indexOf('{');
  let close = text.indexOf('}');
  while (open >= 0 || close >= 0) {
    if (open >= 0 && (close < 0 || open < close)) {
      if (depth === 0) {
        selectors = text.slice(start, open);
        start = open + 1;
      }
      depth++;
      open = text.indexOf('{', open + 1);
      continue;
    }
    const i = close;
    close = text.indexOf('}', close + 1);
    if (depth === 0) continue;
    depth--;
    if (depth > 0) continue;
    if (
      !selectors.trimStart().startsWith('@') &&
      mayConceal(text, start, i) &&
      conceals(text.slice(start, i))
    ) {
      for (const selector of selectors.split(',')) {
        const m = SIMPLE_SELECTOR.exec(selector.trim());
        if (m) names.push(`${m[1]}${m[2] as string}`);
      }
    }
    start = i + 1;
  }
  return names;
}

/** Class and id names that `<style>` rules hide, kept apart so that an element is matched without building strings. */
export class ConcealedNames {
  readonly classes = new Set<string>();
  readonly ids = new Set<string>();

  get size(): number {
    return this.classes.size + this.ids.size;
  }

  /** Adds what concealedSelectors found (".name" or "#id"). */
  add(selector: string): void {
    (selector.startsWith('#') ? this.ids : this.classes).add(selector.slice(1));
  }

  /**
   * Whether an element with these id and class attributes is one a rule hides. Class and id
   * names match case-sensitively, as browsers match them in standards mode.
   */
  matches(id: string | undefined, classes: string | undefined): boolean {
    if (id !== undefined && this.ids.size > 0 && this.ids.has(id.trim())) return true;
    if (classes === undefined || this.classes.size === 0) return false;
    let start = 0;
    for (let i = 0; i <= classes.length; i++) {
      const c = i < classes.length ? classes.charCodeAt(i) : 0x20;
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d) {
        if (i > start && this.classes.has(i - start === classes.length ? classes : classes.slice(start, i)))
          return true;
        start = i + 1;
      }
    }
    return false;
  }
}

const HEX_COLOR = /^#([0-9a-f]{3}|[0-9a-f]{6})$/;
const RGB_COLOR =
  /^rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,\s*(?:1(?:\.0*)?|0?\.\d+)\s*)?\)$/;
/** The lowest channel of a colour a reader cannot tell from the white page (contrast below 1.15). */
const NEAR_WHITE = 240;

/**
 * Whether a CSS colour value (lower case, trimmed) is white or so near it that type in it cannot
 * be read on the white page: `white`, `transparent`, `#fff`, `#fefefe`, `rgb(250, 250, 250)`
 * (every channel 240 or more). Spam writes its hidden words in such colours as often as in pure
 * white.
 */
export function isNearWhite(value: string): boolean {
  if (value === 'white' || value === 'transparent') return true;
  const hex = HEX_COLOR.exec(value);
  if (hex) {
    const digits = hex[1] as string;
    const channel = (k: number): number =>
      digits.length === 3
        ? Number.parseInt((digits[k] as string) + (digits[k] as string), 16)
        : Number.parseInt(digits.slice(2 * k, 2 * k + 2), 16);
    return channel(0) >= NEAR_WHITE && channel(1) >= NEAR_WHITE && channel(2) >= NEAR_WHITE;
  }
  const rgb = RGB_COLOR.exec(value);
  if (rgb) {
    const ok = (k: number): boolean => {
      const v = Number(rgb[k]);
      return v >= NEAR_WHITE && v <= 255;
    };
    return ok(1) && ok(2) && ok(3);
  }
  return false;
}

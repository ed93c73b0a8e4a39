/**
 * How the platform turns a heading into the `id` a link's `#fragment` must name, as its
 * ISC-licensed renderer does it (`@mintlify/common`: `slugify.ts`, `remarkComponentIds`,
 * `remarkExtractTableOfContents`, `rehypeParamFieldIds`; see RULES.md beside this file for the
 * evidence and the probe pages checked with the platform's CLI). Pure.
 *
 * A heading's id, in three steps:
 * 1. `slug(title)`: the title lower-cased, trimmed, blanks as `-`, then percent-encoded
 *    (`encodeURIComponent`), then slugified by `@sindresorhus/slugify` (separators collapsed;
 *    `_` kept, and `%` with the case of its hex digits when anything was encoded). The input of
 *    that last step is always ASCII, so `asciiSlugify` below gives exactly what the library
 *    gives (a unit test holds the two together on many titles).
 * 2. a counter per page makes repeats unique (`setup`, `setup-2`, `setup-3`).
 * 3. `cleanHeadingId`: the id percent-decoded, `?,;:!'"()[]{}` and emoji removed (the component
 *    renders that into the page).
 */
import type { Libraries } from './libraries';

/** What the percent-encoding leaves: `%XX` sequences mean step 1 took the "keep case and %" path. */
const ENCODED = /%[0-9A-F]{2}/;
const NOT_SLUG_LOWER = /[^a-z\d_]+/g;
const NOT_SLUG_ENCODED = /[^a-zA-Z\d%_]+/g;
/** The library's contraction rule: `what-s` becomes `whats`. */
const CONTRACTION = /([a-zA-Z\d]+)-([ts])(-|$)/g;
const CLEANED_PUNCTUATION = /[?,;:!'"()[\]{}]/g;
const EMOJI = /\p{Emoji_Modifier}|\p{Emoji_Modifier_Base}|\p{Emoji_Presentation}|\p{Extended_Pictographic}|\u200D|\uFE0E|\uFE0F/gu;

/** `@sindresorhus/slugify` 2.2.0 with `decamelize: false`, for ASCII input (all that step 1 hands it). */
export function asciiSlugify(text: string, keepCaseAndPercent: boolean): string {
  return (keepCaseAndPercent ? text : text.toLowerCase())
    .replace(keepCaseAndPercent ? NOT_SLUG_ENCODED : NOT_SLUG_LOWER, '-')
    .replace(/\\/g, '')
    .replace(CONTRACTION, '$1$2$3')
    .replace(/-{2,}/g, '-')
    .replace(/^-|-$/g, '');
}

/** The platform's `getUnicodeId`: lower case, trimmed, blanks as `-`, percent-encoded. */
export function unicodeId(title: string): string {
  const dashed = title.toLowerCase().trim().replace(/\s+/g, '-');
  try {
    return encodeURIComponent(dashed);
  } catch {
    // A lone surrogate: the platform's renderer throws there; keep what can be kept.
    return encodeURIComponent(dashed.replace(/[\uD800-\uDFFF]/g, ''));
  }
}

/** Step 1: the slug of a title, before the counter. */
export function slug(title: string): string {
  const encoded = unicodeId(title);
  // The library is given `lowercase: false` and keeps `%` when anything was encoded: the text is lower case already, its hex digits are not.
  if (ENCODED.test(encoded)) return asciiSlugify(encoded, true);
  return asciiSlugify(encoded, false);
}

/** Step 3: what the heading component renders as the element's id. */
export function cleanHeadingId(id: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(id.replace(/%(?![0-9A-Fa-f]{2})/g, '%25'));
  } catch {
    // The platform keeps the id as written when it is not valid percent-encoding.
    return id;
  }
  return decoded.replace(CLEANED_PUNCTUATION, '').replace(EMOJI, '');
}

/** `slugifyWithCounter` of `@sindresorhus/slugify`: the counter that makes a page's slugs unique. */
export class SlugCounter {
  private readonly occurrences = new Map<string, number>();

  next(slugged: string): string {
    if (slugged === '') return '';
    const lower = slugged.toLowerCase();
    const numberless = this.occurrences.get(lower.replace(/(?:-\d+?)+?$/, '')) ?? 0;
    const counter = this.occurrences.get(lower);
    this.occurrences.set(lower, typeof counter === 'number' ? counter + 1 : 1);
    const newCounter = this.occurrences.get(lower) ?? 2;
    return newCounter >= 2 || numberless > 2 ? `${slugged}-${newCounter}` : slugged;
  }
}

/** The table of contents' second pass (`deduplicateSlug`): ids that cleaning made equal are told apart. */
export class TocIds {
  private readonly seen = new Map<string, number>();

  next(id: string): string {
    const count = this.seen.get(id) ?? 0;
    this.seen.set(id, count + 1);
    if (count === 0) return id;
    let suffix = count + 1;
    let suffixed = `${id}-${suffix}`;
    while (this.seen.has(suffixed)) {
      suffix += 1;
      suffixed = `${id}-${suffix}`;
    }
    this.seen.set(suffixed, 1);
    return suffixed;
  }

  /** An id taken by a heading inside a component (not in the table of contents), counted all the same. */
  claim(id: string): void {
    this.seen.set(id, (this.seen.get(id) ?? 0) + 1);
  }
}

/**
 * The library itself, with its transliteration (`Über` -> `uber`), for the ids the platform
 * derives from a component's title or name without percent-encoding first: accordions and views
 * (`generateComponentId`), parameter and response fields (`param-<name>`, decamelized).
 * Memoised per instance: the library builds its transliteration patterns on every call.
 */
export class ComponentIds {
  private readonly memo = new Map<string, string>();

  constructor(private readonly slugify: Libraries['slugify']) {}

  private library(text: string, decamelize: boolean): string {
    const key = `${decamelize ? 'd' : 'k'}${text}`;
    let value = this.memo.get(key);
    if (value === undefined) {
      value = this.slugify(text, { decamelize });
      this.memo.set(key, value);
    }
    return value;
  }

  /** An accordion's or a view's id from its title (`count`: how many earlier ones had the same base). */
  titleId(title: string, count: number): string {
    const base = this.library(title.replace(':', '-'), false);
    return count > 0 ? `${base}-${count}` : base;
  }

  /** A parameter or response field's id: `param-user-id` for `userId`, `_1`, `_2` on repeats. */
  fieldId(name: string, count: number): string {
    return this.library(`param-${name}${count > 0 ? `_${count}` : ''}`, true);
  }
}

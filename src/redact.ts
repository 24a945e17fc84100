/**
 * A URL as it may be logged or put in an error: the user-info part (`user:password@`) replaced by
 * `***@`. Works on strings that are not valid URLs too (a malformed store URL is exactly the one
 * that ends up in an error message): everything from `//` to the LAST `@` before the path is
 * user-info, because a password may itself contain `@`, `:` or even `/`. When in doubt more is
 * hidden, never less.
 */
export function redactUrl(url: string): string {
  const scheme = url.indexOf('//');
  if (scheme < 0) return url.includes('@') ? `***@${url.slice(url.lastIndexOf('@') + 1)}` : url;
  const at = url.lastIndexOf('@');
  if (at < scheme) return url;
  return `${url.slice(0, scheme + 2)}***${url.slice(at)}`;
}

/** Every URL-looking substring of `text` with its user-info redacted (for messages of libraries). */
export function redactUrlsIn(text: string): string {
  return text.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, (url) => redactUrl(url));
}

// If-None-Match as RFC 9110 (§13.1.2) has an origin server read it, for every
// route that answers 304 or long-polls on an entity tag (the broadcast
// /broadcast.pdn, the page's files): `*` matches any current representation,
// and tags compare weakly (W/"x" names the same version as "x"). The
// request's Cache-Control does not change the answer (it speaks to caches).
// Pure.

/** The tags an If-None-Match field lists (every field line of it), weak ones included; '*' for any. */
export function noneMatchTags(field: string | readonly string[] | undefined): '*' | string[] {
  if (field === undefined) return [];
  const text = typeof field === 'string' ? field : field.join(',');
  if (text.trim() === '*') return '*';
  return text.match(/(?:W\/)?"[^"]*"/g) ?? [];
}

/** The opaque part of an entity tag: "x" for both W/"x" and "x" (weak comparison). */
const opaque = (tag: string): string => tag.trim().replace(/^W\//, '');

/** True when an If-None-Match field names the representation whose ETag is `etag` (the answer is then 304, or a long poll). */
export function noneMatchHits(field: string | readonly string[] | undefined, etag: string): boolean {
  const tags = noneMatchTags(field);
  if (tags === '*') return true;
  const current = opaque(etag);
  return tags.some((t) => opaque(t) === current);
}

// Text put into HTML by string (the server's work pages, the public pages' render, the build's
// title): the one escape, and the one way to put text in place of a marker.
// No imports: the web app's server render imports this file too.

/** `text` safe inside an element or a double- or single-quoted attribute. */
export const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  )

/**
 * `html` with its first `marker` replaced by `text` exactly as given. A string replacement would
 * read `$&`, `` $` ``, `$'` and `$$` in `text` as patterns (the match, what precedes or follows
 * it), so an admin's `Save $' now` would copy half the document into itself; a function's
 * result is taken literally.
 */
export const putInPlace = (html: string, marker: string | RegExp, text: string) =>
  html.replace(marker, () => text)

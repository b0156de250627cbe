// Text put into HTML by string (the server's work pages, the public pages' render): the one escape.
// No imports: the web app's server render imports this file too.

/** `text` safe inside an element or a double- or single-quoted attribute. */
export const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  )

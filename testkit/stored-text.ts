// Text that would change a page's structure if a template read it as anything but text: each of
// a string replacement's patterns (`$&` the match, `` $` `` and `$'` what precedes and follows
// it, `$$`) and the end of a script element. Put into every field an admin edits by the tests of
// every page the server makes from stored text.

export const PATTERNS = "$& $` $' $$ </script>"

/** The value a field gets: its own tag (to tell the fields apart), then every pattern. */
export const marked = (tag: string) => `${tag} ${PATTERNS} end`

/**
 * `content` (the site's content as GET /api/site gives it) with every text field marked: hero
 * line and services, client names, About headline, paragraphs and mission, contact intro,
 * address, and each team member's name and job title. Phone and e-mail only take their own
 * characters. Returns the content and every text put in.
 */
// biome-ignore lint/suspicious/noExplicitAny: the content as GET /api/site gives it
export function markEveryField(content: any): { content: any; texts: string[] } {
  const texts: string[] = []
  const put = (tag: string) => {
    const text = marked(tag)
    texts.push(text)
    return text
  }
  const next = structuredClone(content)
  next.hero.line = put('Hero')
  next.hero.services = next.hero.services.map((_: string, i: number) => put(`S${i}`))
  for (const [i, client] of next.clients.entries()) client.name = put(`Client ${i}`)
  next.about.lead = put('Lead')
  next.about.paragraphs = next.about.paragraphs.map((_: string, i: number) => put(`P${i}`))
  next.about.mission = put('Mission')
  next.contact.intro = put('Intro')
  next.contact.address = put('Address')
  for (const [i, member] of next.contact.team.entries()) {
    member.name = put(`Name ${i}`)
    member.title = put(`Job ${i}`)
  }
  return { content: next, texts }
}

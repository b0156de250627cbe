// A work's current sources, for a player whose page outlived the ones it named
// (player/recover.ts): the work's own page as the server renders it now, whose data holds the
// work as the public list does. A work the site no longer shows (hidden, deleted, without
// streams) answers 404 there, and then there is nothing to play.
import { PAGE_DATA_ID } from '@contract/public-page.ts'
import { pageDataFrom } from './page-data.ts'
import type { PublicVideo } from './public-videos.ts'

/** The work the page at `path` shows now (a work's page or a review page); null when none. */
export async function workAt(path: string): Promise<PublicVideo | null> {
  const response = await fetch(path, { headers: { Accept: 'text/html' }, cache: 'no-cache' })
  if (!response.ok) return null
  const page = new DOMParser().parseFromString(await response.text(), 'text/html')
  const text = page.getElementById(PAGE_DATA_ID)?.textContent
  const data = text ? pageDataFrom(JSON.parse(text)) : null
  return data && data.kind !== 'landing' ? data.video : null
}

/** How a tile or its modal asks for its work's current sources: through the work's own page. */
export const currentOf = (video: PublicVideo) => () =>
  video.slug ? workAt(`/work/${encodeURIComponent(video.slug)}`) : Promise.resolve(null)

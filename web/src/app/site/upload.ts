// Sends a site image to POST /api/site/images (a file is a body of bytes, not a tRPC call) with
// the session's token, and reads the converted image or the server's message.
import { imageTypes } from '@contract/index.ts'
import type { ImagePurpose, SiteImage } from '@contract/site.ts'
import { imageMsg, siteImageLimits } from '@contract/site.ts'
import { RequestError } from '../lib/errors.ts'
import { handleUnauthorized, trackCall } from '../lib/session.ts'
import { useAuthStore } from '../stores/auth.ts'

// The video form's image types (the shared file rules), and SVG for logos.
const accepted: Record<ImagePurpose, readonly string[]> = {
  heroWide: imageTypes,
  heroMobile: imageTypes,
  logo: [...imageTypes, 'image/svg+xml'],
}

/** The file input's `accept` for a purpose. */
export const acceptFor = (purpose: ImagePurpose) => accepted[purpose].join(',')

/** Early feedback from what the browser says of the file; the server decides from its bytes. */
export function imageFileError(purpose: ImagePurpose, file: File): string | null {
  if (file.type && !accepted[purpose].includes(file.type)) {
    return purpose === 'logo' ? imageMsg.logoType : imageMsg.heroType
  }
  if (file.size > siteImageLimits.bytes) return imageMsg.tooLarge
  return null
}

export async function uploadSiteImage(purpose: ImagePurpose, file: File): Promise<SiteImage> {
  const { token } = useAuthStore.getState()
  const done = trackCall(token)
  try {
    const res = await fetch(`/api/site/images?purpose=${purpose}`, {
      method: 'POST',
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      body: file,
    })
    const body = (await res.json().catch(() => null)) as {
      data?: { image?: SiteImage }
      message?: string
      field?: string
    } | null
    if (res.status === 401) handleUnauthorized(token)
    if (!res.ok || !body?.data?.image) {
      throw new RequestError(body?.message ?? '', res.status, body?.field)
    }
    return body.data.image
  } finally {
    done()
  }
}

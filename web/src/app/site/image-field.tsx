// One image of the site: its preview and a button to replace it. The file is converted on the
// server (AVIF/WebP, or a sanitised SVG); until then the field says so and keeps the old image.

import type { ImagePurpose, SiteImage } from '@contract/site.ts'
import { useId, useRef, useState } from 'react'
import { SiteIcons } from '../components/icons.tsx'
import { buttonStyles, FieldError, Spinner } from '../components/ui.tsx'
import { toClientError } from '../lib/errors.ts'
import { acceptFor, imageFileError, uploadSiteImage } from './upload.ts'

type Props = {
  purpose: ImagePurpose
  /** What the image is, e.g. "Wide hero image"; also names the button for screen readers. */
  label: string
  hint?: string
  image: SiteImage | undefined
  onUploaded: (image: SiteImage) => void
  /** The form's message for this field (e.g. a client without a logo). */
  error?: string
  compact?: boolean
  onBusyChange?: (busy: boolean) => void
}

/** The file the preview shows: the smallest, for a small preview. */
const previewOf = (image: SiteImage | undefined) =>
  image ? [...image.files].sort((a, b) => a.width - b.width)[0]?.url : undefined

export function ImageField(props: Props) {
  const { purpose, label, hint, image, onUploaded, error, compact, onBusyChange } = props
  const input = useRef<HTMLInputElement>(null)
  const [busy, setBusy] = useState(false)
  const [uploadError, setUploadError] = useState<string | null>(null)
  const id = useId()
  const message = uploadError ?? error

  async function choose(file: File | undefined) {
    if (!file) return
    const early = imageFileError(purpose, file)
    if (early) {
      setUploadError(early)
      return
    }
    setUploadError(null)
    setBusy(true)
    onBusyChange?.(true)
    try {
      onUploaded(await uploadSiteImage(purpose, file))
    } catch (err) {
      setUploadError(toClientError(err).message || 'Failed to upload the image')
    } finally {
      setBusy(false)
      onBusyChange?.(false)
      if (input.current) input.current.value = ''
    }
  }

  const src = previewOf(image)
  return (
    <div className={compact ? 'flex items-center gap-3' : ''}>
      {compact ? null : (
        <p id={`${id}-label`} className="mb-1 font-medium text-sm">
          {label}
        </p>
      )}
      <div
        className={`relative grid shrink-0 place-items-center overflow-hidden rounded-lg border border-zinc-200 bg-ink-950 dark:border-ink-700 ${
          compact ? 'h-12 w-30' : 'aspect-video w-full max-w-md'
        }`}
      >
        {src ? (
          <img
            src={src}
            alt=""
            className={compact ? 'size-full object-contain p-1.5' : 'size-full object-cover'}
          />
        ) : (
          <SiteIcons.image className="size-6 text-zinc-500" />
        )}
        {busy ? (
          <div className="absolute inset-0 grid place-items-center bg-ink-950/70">
            <Spinner label={`Converting ${label.toLowerCase()}`} className="size-6" />
          </div>
        ) : null}
      </div>
      <div className={compact ? 'min-w-0' : 'mt-2'}>
        <input
          ref={input}
          id={`${id}-file`}
          type="file"
          accept={acceptFor(purpose)}
          className="sr-only"
          tabIndex={-1}
          aria-label={label}
          onChange={(e) => void choose(e.target.files?.[0])}
        />
        <button
          type="button"
          className={`${buttonStyles.secondary} ${compact ? 'px-3 py-1.5 text-xs' : ''}`}
          onClick={() => input.current?.click()}
          disabled={busy}
          aria-describedby={message ? `${id}-error` : hint ? `${id}-hint` : undefined}
        >
          {busy ? 'Converting…' : src ? `Replace ${compact ? 'logo' : 'image'}` : 'Upload'}
          <span className="sr-only"> ({label})</span>
        </button>
        {hint && !compact ? (
          <p id={`${id}-hint`} className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">
            {hint}
          </p>
        ) : null}
        <FieldError id={`${id}-error`} message={message ?? undefined} />
      </div>
    </div>
  )
}

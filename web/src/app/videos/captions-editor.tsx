// The edit dialog's Captions section (docs/dashboard.md, Edit Video): the work's tracks with
// Remove (asked once, inline, then in effect at once), and a small form that adds one (the file
// goes up by tus, then videos.addCaptions; a track in a language already there replaces it).
// Outside the video form: each change applies on its own, not with `Update Video`.

import type { CaptionTrack } from '@contract/captions.ts'
import { CAPTIONS_PER_VIDEO_MAX } from '@contract/captions.ts'
import { useEffect, useId, useRef, useState } from 'react'
import { useWatch } from 'react-hook-form'
import type { Video } from '../../api.ts'
import { focusWhenDrawn, InlineConfirm } from '../components/inline-confirm.tsx'
import { EmptyLine, QueryState } from '../components/query-state.tsx'
import { TextField } from '../components/text-field.tsx'
import { Button, ProgressBar } from '../components/ui.tsx'
import { toClientError } from '../lib/errors.ts'
import { notify } from '../lib/notify.ts'
import { handleUnauthorized } from '../lib/session.ts'
import { useZodForm } from '../lib/use-zod-form.ts'
import { useAuthStore } from '../stores/auth.ts'
import { currentListInput, replaceVideo } from '../stores/video-store.ts'
import { trpc } from '../trpc.ts'
import {
  type CaptionRowInput,
  type CaptionRowOutput,
  captionRowSchema,
  emptyCaptionRow,
  labelForLanguage,
} from './caption-form-schema.ts'
import { trackIn } from './caption-tracks.ts'
import { FileField } from './file-field.tsx'
import { LanguageSuggestions } from './language-suggestions.tsx'
import { uploadItems } from './tus-uploads.ts'

interface CaptionsEditorProps {
  video: Video
  /** True while a track is being added or removed: the dialog refuses to close then. */
  onBusyChange: (busy: boolean) => void
}

export function CaptionsEditor({ video, onBusyChange }: CaptionsEditorProps) {
  const utils = trpc.useUtils()
  // Asked again when the dialog opens: another admin may have changed the tracks meanwhile.
  const current = trpc.videos.get.useQuery({ id: video._id }, { staleTime: 0 })
  const headingId = useId()
  const heading = useRef<HTMLHeadingElement>(null)
  const [announcement, setAnnouncement] = useState('')
  // A repeated outcome must change the region's text to be read again.
  const announce = (text: string) =>
    setAnnouncement((before) => (before === text ? `${text}\u00a0` : text))

  /** The work as a change of its tracks left it: the dialog's copy and the Manage list follow. */
  const changed = (saved: Video) => {
    utils.videos.get.setData(
      { id: video._id },
      (old) => old && { video: { ...saved, openNotes: old.video.openNotes } },
    )
    utils.videos.list.setData(currentListInput(), (old) => old && replaceVideo(old, saved))
    void utils.videos.list.invalidate()
  }

  return (
    <section aria-labelledby={headingId} aria-busy={current.isFetching} className="space-y-3">
      <h3
        id={headingId}
        ref={heading}
        tabIndex={-1}
        className="font-semibold outline-none focus-visible:ring-2 focus-visible:ring-amber-500"
      >
        Captions
      </h3>
      <p className="text-sm text-zinc-600 dark:text-zinc-300">
        Subtitles viewers can turn on in the player. Adding or removing a track applies at once.
      </p>
      <QueryState
        query={current}
        loading="Loading captions"
        failed="Failed to load captions"
        select={(data) => data.video.captions}
        compact
        pad="py-4"
      >
        {(tracks) => (
          <>
            {tracks.length === 0 ? (
              <EmptyLine compact>No captions yet</EmptyLine>
            ) : (
              <ul aria-label="Caption tracks" className="space-y-2">
                {tracks.map((track) => (
                  <TrackRow
                    key={track.language}
                    videoId={video._id}
                    track={track}
                    onBusyChange={onBusyChange}
                    onRemoved={(saved) => {
                      changed(saved)
                      notify.success('Captions removed')
                      announce(`${track.label} captions removed`)
                      // The row and its buttons are gone: focus goes to the section.
                      heading.current?.focus()
                    }}
                    announce={announce}
                  />
                ))}
              </ul>
            )}
            <AddTrackForm
              video={video}
              tracks={tracks}
              onBusyChange={onBusyChange}
              onAdded={(track, saved) => {
                changed(saved)
                notify.success('Captions added')
                announce(`${track.label} captions added`)
              }}
            />
          </>
        )}
      </QueryState>
      <p role="status" className="sr-only">
        {announcement}
      </p>
    </section>
  )
}

function TrackRow({
  videoId,
  track,
  onBusyChange,
  onRemoved,
  announce,
}: {
  videoId: string
  track: CaptionTrack
  onBusyChange: (busy: boolean) => void
  onRemoved: (video: Video) => void
  announce: (text: string) => void
}) {
  const remove = trpc.videos.removeCaptions.useMutation()
  const [asking, setAsking] = useState(false)
  const row = useRef<HTMLLIElement>(null)

  const confirm = async () => {
    onBusyChange(true)
    try {
      const { video } = await remove.mutateAsync({ id: videoId, language: track.language })
      onRemoved(video)
    } catch (err) {
      const e = toClientError(err)
      if (e.kind === 'unauthorized') {
        handleUnauthorized(useAuthStore.getState().token)
        return
      }
      const message = e.message || 'Failed to remove the captions'
      notify.error(message)
      announce(message)
    } finally {
      onBusyChange(false)
    }
  }

  return (
    <li
      ref={row}
      className="flex flex-col gap-2 rounded-lg border border-zinc-200 p-3 sm:flex-row sm:items-center sm:justify-between dark:border-ink-700"
    >
      <p className="min-w-0 break-words">
        <span className="font-medium">{track.label}</span>{' '}
        <span className="text-sm text-zinc-600 dark:text-zinc-300">({track.language})</span>
      </p>
      {asking ? (
        <InlineConfirm
          question="Remove now? Viewers stop seeing them at once."
          action="Remove captions"
          busyLabel="Removing..."
          busy={remove.isPending}
          onKeep={() => {
            setAsking(false)
            focusWhenDrawn(row, '[data-remove]')
          }}
          onConfirm={() => void confirm()}
        />
      ) : (
        <Button
          data-remove
          variant="secondary"
          className="min-h-11 shrink-0 self-start text-red-700 sm:self-auto dark:text-red-400"
          aria-label={`Remove ${track.label} captions`}
          onClick={() => {
            setAsking(true)
            focusWhenDrawn(row, '[data-keep]')
          }}
        >
          Remove
        </Button>
      )}
    </li>
  )
}

function AddTrackForm({
  video,
  tracks,
  onBusyChange,
  onAdded,
}: {
  video: Video
  tracks: CaptionTrack[]
  onBusyChange: (busy: boolean) => void
  onAdded: (track: CaptionTrack, video: Video) => void
}) {
  const add = trpc.videos.addCaptions.useMutation()
  const {
    register,
    handleSubmit,
    setValue,
    getValues,
    setError,
    clearErrors,
    trigger,
    reset,
    control,
    formState: { errors, isSubmitting },
  } = useZodForm<CaptionRowInput, CaptionRowOutput>(() => captionRowSchema, emptyCaptionRow())
  const file = useWatch({ control, name: 'file' })
  const typed = useWatch({ control, name: 'language' })
  const [progress, setProgress] = useState(0)
  const formId = useId()
  const suggestionsId = `${formId}-languages`
  useEffect(() => onBusyChange(isSubmitting), [isSubmitting, onBusyChange])

  const replaces = typed.trim() ? trackIn(tracks, typed.trim()) : undefined
  const full = tracks.length >= CAPTIONS_PER_VIDEO_MAX && !replaces
  const language = register('language')

  const submit = handleSubmit(async ({ file: chosen, language: tag, label }) => {
    if (!chosen) return
    setProgress(0)
    const { token, user } = useAuthStore.getState()
    try {
      const ids = await uploadItems([{ key: 'file', kind: 'captions', file: chosen }], {
        token,
        scope: { owner: user?._id ?? '', purpose: `edit:${video._id}` },
        onProgress: ({ percent }) => setProgress(percent),
      })
      const upload = ids.file
      if (!upload) throw new Error('The upload did not finish')
      const { caption, video: saved } = await add.mutateAsync({
        id: video._id,
        upload,
        language: tag,
        label,
      })
      reset(emptyCaptionRow())
      onAdded(caption, saved)
    } catch (err) {
      const e = toClientError(err)
      if (e.kind === 'unauthorized') {
        handleUnauthorized(token)
        notify.error('Please login to update videos')
        return
      }
      // The server names the field at fault: the file (the line it is wrong at), the language
      // or the label; anything else is said as a message.
      const field =
        e.field === 'language' || e.field === 'label'
          ? e.field
          : e.field === 'file' || e.field === 'upload' || e.field === 'captions'
            ? 'file'
            : null
      const message = e.message || 'Failed to add the captions'
      if (field) setError(field, { message }, { shouldFocus: field !== 'file' })
      else notify.error(message)
    } finally {
      setProgress(0)
    }
  })

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-busy={isSubmitting}
      aria-labelledby={`${formId}-title`}
      className="space-y-3 rounded-lg border border-zinc-200 p-3 dark:border-ink-700"
    >
      <h4 id={`${formId}-title`} className="font-medium text-sm">
        Add a track
      </h4>
      <div className="grid gap-3 sm:grid-cols-2">
        <FileField
          kind="captions"
          label="Caption file"
          mode="edit"
          file={file}
          error={errors.file?.message}
          disabled={isSubmitting}
          onChoose={(chosen) => {
            setValue('file', chosen, { shouldDirty: true })
            void trigger('file')
          }}
          onRemove={() => {
            setValue('file', undefined, { shouldDirty: true })
            clearErrors('file')
          }}
        />
        <div className="space-y-3">
          <TextField
            label="Language"
            hint={
              replaces ? `Replaces the ${replaces.label} track.` : 'A language tag: en, fr, pt-BR…'
            }
            list={suggestionsId}
            autoComplete="off"
            spellCheck={false}
            disabled={isSubmitting}
            inputClassName="min-h-11"
            error={errors.language?.message}
            {...language}
            onChange={(event) => {
              const before = getValues('language')
              void language.onChange(event)
              // A label to start from: the language's name, until one is typed.
              const label = labelForLanguage(getValues('label'), before, event.target.value)
              if (label !== null) setValue('label', label)
            }}
          />
          <TextField
            label="Label"
            hint='What viewers pick, e.g. "English (SDH)".'
            autoComplete="off"
            disabled={isSubmitting}
            inputClassName="min-h-11"
            error={errors.label?.message}
            {...register('label')}
          />
        </div>
      </div>
      {isSubmitting ? <ProgressBar value={progress} label="Caption upload" /> : null}
      {full ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-300">
          This work has {CAPTIONS_PER_VIDEO_MAX} tracks, the most it can have: remove one first.
        </p>
      ) : null}
      <div className="flex justify-end">
        <Button
          type="submit"
          variant="secondary"
          disabled={isSubmitting || full || Boolean(errors.file)}
          className="min-h-11 min-w-36"
        >
          {isSubmitting ? 'Adding...' : replaces ? 'Replace track' : 'Add track'}
        </Button>
      </div>
      <LanguageSuggestions id={suggestionsId} />
    </form>
  )
}

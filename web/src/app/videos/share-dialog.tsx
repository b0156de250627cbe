// "Share privately…" (docs/dashboard.md, Share privately): makes a private review link to one work,
// with an expiry, an optional password and an optional note, shows its address to copy, and lists
// the work's links, each revocable at once. Outcomes the toasts cannot tell a screen reader while
// the dialog is open (docs/decisions/046-native-dialog-toasts-in-a-popover.md) are also said in the
// dialog's own live region.

import { type ReviewLinkView, reviewLinkLimits } from '@contract/review-link.ts'
import { Link } from '@tanstack/react-router'
import { useMemo, useRef, useState } from 'react'
import { useWatch } from 'react-hook-form'
import type { Video } from '../../api.ts'
import { Dialog } from '../components/dialog.tsx'
import { TextField } from '../components/text-field.tsx'
import { Button, FieldError, inputStyles } from '../components/ui.tsx'
import { toClientError } from '../lib/errors.ts'
import { notify } from '../lib/notify.ts'
import { useZodForm } from '../lib/use-zod-form.ts'
import { trpc } from '../trpc.ts'
import { ReviewLinkList } from './review-link-list.tsx'
import { dayRange } from './review-link-text.ts'
import {
  expiryLabels,
  type ShareFormInput,
  type ShareFormOutput,
  shareFormDefaults,
  shareFormSchema,
  toCreateInput,
} from './share-form-schema.ts'

type Shared = Pick<Video, '_id' | 'title'>

/** A link just made: its address, and whether a password was set (it is not shown again). */
type Made = { link: ReviewLinkView; withPassword: boolean }

export function ShareDialog({ video, onClose }: { video: Shared; onClose: () => void }) {
  const [made, setMade] = useState<Made | null>(null)
  const [announcement, setAnnouncement] = useState('')
  // A repeated outcome ("Link copied" twice) must change the region's text to be read again.
  const announce = (text: string) =>
    setAnnouncement((before) => (before === text ? `${text}\u00a0` : text))

  return (
    <Dialog title="Share privately" description={video.title} onClose={onClose} size="lg">
      <div className="space-y-6 p-5">
        {made ? (
          <MadeLink made={made} announce={announce} onAnother={() => setMade(null)} />
        ) : (
          <ShareForm
            video={video}
            onMade={(link, withPassword) => {
              setMade({ link, withPassword })
              announce('Link created')
            }}
          />
        )}
        <ReviewLinkList videoId={video._id} announce={announce} />
      </div>
      <div className="flex flex-wrap items-center justify-end gap-3 border-zinc-200 border-t px-5 py-3 dark:border-ink-700">
        <Link
          to="/dashboard/videos/$id/review"
          params={{ id: video._id }}
          className="mr-auto text-sm underline hover:no-underline"
        >
          Review the notes clients left
        </Link>
        <Button variant="secondary" className="min-h-11" onClick={onClose}>
          Close
        </Button>
      </div>
      <p role="status" className="sr-only">
        {announcement}
      </p>
    </Dialog>
  )
}

const choiceStyles =
  'inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-lg border border-zinc-300 px-3 text-sm has-checked:border-amber-500 has-checked:bg-amber-50 has-focus-visible:outline-2 has-focus-visible:outline-amber-500 has-disabled:cursor-not-allowed has-disabled:opacity-60 dark:border-ink-700 dark:has-checked:border-accent dark:has-checked:bg-ink-800'

function ShareForm({
  video,
  onMade,
}: {
  video: Shared
  onMade: (link: ReviewLinkView, withPassword: boolean) => void
}) {
  const utils = trpc.useUtils()
  const create = trpc.reviewLinks.create.useMutation()
  const {
    register,
    handleSubmit,
    control,
    setError,
    formState: { errors, isSubmitting },
  } = useZodForm<ShareFormInput, ShareFormOutput>(shareFormSchema, shareFormDefaults)
  const expiry = useWatch({ control, name: 'expiry' })
  const [showPassword, setShowPassword] = useState(false)
  const days = useMemo(() => dayRange(new Date(), reviewLinkLimits.maxDays), [])

  const submit = handleSubmit(async (form) => {
    try {
      const link = await create.mutateAsync(toCreateInput(video._id, form, new Date()))
      utils.reviewLinks.list.setData({ videoId: video._id }, (old) =>
        old ? [link, ...old.filter((l) => l.id !== link.id)] : [link],
      )
      void utils.reviewLinks.list.invalidate({ videoId: video._id })
      notify.success('Link created')
      onMade(link, form.password !== '')
    } catch (err) {
      const e = toClientError(err)
      const field = e.field === 'expiresAt' ? 'day' : e.field
      if ((field === 'day' && form.expiry === 'date') || field === 'password' || field === 'note') {
        setError(field, { message: e.message || 'Check this field' })
        return
      }
      notify.error(e.message || 'Failed to create the link')
    }
  })

  return (
    <form onSubmit={submit} noValidate aria-busy={isSubmitting} className="space-y-4">
      <fieldset>
        <legend className="mb-2 font-medium text-sm">Expires after</legend>
        <div className="flex flex-wrap gap-2">
          {(['1d', '7d', '30d', 'date', 'never'] as const).map((value) => (
            <label key={value} className={choiceStyles}>
              <input
                type="radio"
                value={value}
                // The dialog opens on the choice already made, not on the first one.
                data-autofocus={value === shareFormDefaults.expiry ? true : undefined}
                disabled={isSubmitting}
                className="size-4 accent-amber-500"
                {...register('expiry')}
              />
              {expiryLabels[value]}
            </label>
          ))}
        </div>
      </fieldset>
      {expiry === 'date' ? (
        <TextField
          type="date"
          label="Last day"
          hint="The link works until the end of this day."
          min={days.min}
          max={days.max}
          disabled={isSubmitting}
          error={errors.day?.message}
          className="max-w-xs"
          inputClassName="min-h-11"
          {...register('day')}
        />
      ) : null}
      <PasswordField
        shown={showPassword}
        onToggle={() => setShowPassword((s) => !s)}
        disabled={isSubmitting}
        error={errors.password?.message}
        {...register('password')}
      />
      <TextField
        label="Note (optional)"
        hint='Only admins see it, e.g. "for Acme, v3".'
        autoComplete="off"
        maxLength={reviewLinkLimits.noteMax}
        inputClassName="min-h-11"
        disabled={isSubmitting}
        error={errors.note?.message}
        {...register('note')}
      />
      <div className="flex justify-end">
        <Button type="submit" disabled={isSubmitting} className="min-h-11 min-w-36">
          {isSubmitting ? 'Creating...' : 'Create link'}
        </Button>
      </div>
    </form>
  )
}

type PasswordFieldProps = React.ComponentProps<'input'> & {
  shown: boolean
  onToggle: () => void
  error?: string
}

/** The optional password, hidden as typed unless the admin asks to see it. */
function PasswordField({ shown, onToggle, error, disabled, ref, ...rest }: PasswordFieldProps) {
  const id = 'share-password'
  return (
    <div>
      <label htmlFor={id} className="mb-1 block font-medium text-sm">
        Password (optional)
      </label>
      <div className="flex gap-2">
        <input
          ref={ref}
          id={id}
          type={shown ? 'text' : 'password'}
          autoComplete="new-password"
          maxLength={reviewLinkLimits.passwordMax}
          disabled={disabled}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
          className={`${inputStyles} min-h-11 min-w-0 flex-1`}
          {...rest}
        />
        <Button
          variant="secondary"
          className="min-h-11 min-w-16 shrink-0"
          aria-label={shown ? 'Hide password' : 'Show password'}
          aria-controls={id}
          disabled={disabled}
          onClick={onToggle}
        >
          {shown ? 'Hide' : 'Show'}
        </Button>
      </div>
      <p id={`${id}-hint`} className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">
        The client types it to open the link; at least {reviewLinkLimits.passwordMin} characters.
      </p>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  )
}

/** The address of the link just made, to copy; focused as it appears. */
function MadeLink({
  made,
  announce,
  onAnother,
}: {
  made: Made
  announce: (text: string) => void
  onAnother: () => void
}) {
  const field = useRef<HTMLInputElement>(null)
  const select = () => {
    field.current?.focus()
    field.current?.select()
  }

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(made.link.url)
      notify.success('Link copied')
      announce('Link copied')
    } catch {
      // No clipboard here (an insecure page, a refused permission): the text is ready to copy.
      select()
      notify.message('Press Ctrl+C (⌘C on a Mac) to copy the selected link')
      announce('The link is selected: press Ctrl+C, or ⌘C on a Mac, to copy it')
    }
  }

  return (
    <section aria-labelledby="share-made-heading" className="space-y-3">
      <h3 id="share-made-heading" className="font-semibold">
        Link created
      </h3>
      <div>
        <label htmlFor="share-url" className="mb-1 block font-medium text-sm">
          Private link
        </label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <input
            ref={(el) => {
              field.current = el
              // Focus goes to the new address, so it is read out and ready to copy.
              if (el && !el.dataset.shown) {
                el.dataset.shown = 'true'
                el.focus()
                el.select()
              }
            }}
            id="share-url"
            readOnly
            value={made.link.url}
            onFocus={(e) => e.currentTarget.select()}
            className={`${inputStyles} min-h-11 min-w-0 flex-1 font-mono`}
          />
          <Button className="min-h-11 shrink-0" onClick={() => void copy()}>
            Copy link
          </Button>
        </div>
      </div>
      {made.withPassword ? (
        <p className="rounded-lg bg-amber-50 px-3 py-2 text-amber-900 text-sm dark:bg-ink-800 dark:text-amber-200">
          The password is not shown again: send it to your client yourself, apart from the link.
        </p>
      ) : null}
      <div className="flex justify-end">
        <Button variant="secondary" className="min-h-11" onClick={onAnother}>
          Make another link
        </Button>
      </div>
    </section>
  )
}

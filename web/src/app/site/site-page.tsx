// Site (docs/dashboard.md#site): the public page's hero, clients, About text and contacts, edited in one form.
// Every save is a version; 'Undo last change' takes back the newest change not yet undone (as a
// new version), one step further back each click, and is disabled once nothing is left.

import {
  fromSiteForm,
  type SiteForm,
  type SiteImage,
  siteFormSchema,
  siteLimits,
  siteMsg,
  siteSections,
  toSiteForm,
} from '@contract/site.ts'
import { zodResolver } from '@hookform/resolvers/zod'
import type { inferRouterOutputs } from '@trpc/server'
import { useState } from 'react'
import { type UseFormReturn, useForm } from 'react-hook-form'
import type { AppRouter } from '../../api.ts'
import { Dialog } from '../components/dialog.tsx'
import { SiteIcons } from '../components/icons.tsx'
import { PageHeader } from '../components/page-header.tsx'
import { QueryState } from '../components/query-state.tsx'
import { TextField } from '../components/text-field.tsx'
import { Button, buttonStyles } from '../components/ui.tsx'
import { toClientError } from '../lib/errors.ts'
import { formatDate } from '../lib/format.ts'
import { notify } from '../lib/notify.ts'
import { useLeaveWarning } from '../lib/use-leave-warning.ts'
import { trpc } from '../trpc.ts'
import { ClientsEditor } from './clients-editor.tsx'
import { Section, TextAreaField } from './fields.tsx'
import { ImageField } from './image-field.tsx'
import { PlaybackEditor } from './playback-editor.tsx'
import { TeamEditor } from './team-editor.tsx'
import { TextList } from './text-list.tsx'

type SiteState = inferRouterOutputs<AppRouter>['site']['get']

export function SitePage() {
  const site = trpc.site.get.useQuery(undefined, { staleTime: 0, refetchOnWindowFocus: false })
  return (
    <div className="mx-auto max-w-5xl">
      <QueryState query={site} loading="Loading the site content">
        {(data) => <SiteEditor state={data} />}
      </QueryState>
    </div>
  )
}

const sectionNames = (changed: readonly string[]) =>
  changed.map((s) => siteSections[s as keyof typeof siteSections] ?? s).join(', ')

function SiteEditor({ state }: { state: SiteState }) {
  const utils = trpc.useUtils()
  const form = useForm({
    resolver: zodResolver(siteFormSchema),
    defaultValues: toSiteForm(state.content),
  })
  const { register, handleSubmit, formState, reset } = form
  const [images, setImages] = useState<Record<string, SiteImage>>(state.images)
  // The version the form was loaded from: a refetch in the background must not make a save
  // overwrite a change this form has not seen (the server answers 409 instead).
  const [base, setBase] = useState(state.version)
  const [converting, setConverting] = useState(0)
  const [stale, setStale] = useState(false)
  const [confirmUndo, setConfirmUndo] = useState(false)
  const save = trpc.site.save.useMutation()
  const undo = trpc.site.undo.useMutation()
  const addImage = (image: SiteImage) => setImages((all) => ({ ...all, [image.id]: image }))
  const onBusyChange = (busy: boolean) => setConverting((n) => n + (busy ? 1 : -1))
  const errors = formState.errors

  // Closing or reloading the tab with unsaved edits asks first.
  useLeaveWarning(formState.isDirty)

  /** The server's state after a save or an undo: it becomes the form's new starting point. */
  function adopt(next: SiteState) {
    utils.site.get.setData(undefined, next)
    setBase(next.version)
    setImages(next.images)
    reset(toSiteForm(next.content))
    setStale(false)
  }

  function failed(err: unknown, fallback: string) {
    const e = toClientError(err)
    if (e.kind === 'conflict') setStale(true)
    notify.error(e.message || fallback)
  }

  const onSubmit = handleSubmit(async (values) => {
    try {
      const next = await save.mutateAsync({
        baseVersion: base,
        content: fromSiteForm(values),
      })
      adopt(next)
      notify.success(next.changed.length ? 'Site saved' : 'No changes detected')
    } catch (err) {
      failed(err, 'Failed to save the site')
    }
  })

  async function runUndo() {
    try {
      adopt(await undo.mutateAsync({ baseVersion: base }))
      notify.success('Last change undone')
      setConfirmUndo(false)
    } catch (err) {
      failed(err, 'Failed to undo the last change')
      setConfirmUndo(false)
    }
  }

  async function reload() {
    const next = await utils.site.get.fetch()
    adopt(next)
  }

  const last = state.lastChange
  const next = state.nextUndo
  const saving = save.isPending
  return (
    <>
      <PageHeader
        title="Site"
        crumb="Site"
        actions={
          <>
            <a href="/" target="_blank" rel="noopener" className={buttonStyles.secondary}>
              View site
            </a>
            <Button
              variant="secondary"
              disabled={!state.canUndo || saving || undo.isPending}
              title={state.canUndo ? undefined : siteMsg.nothingToUndo}
              onClick={() => setConfirmUndo(true)}
            >
              <SiteIcons.undo className="size-4" /> Undo last change
            </Button>
          </>
        }
      />
      <p className="-mt-3 mb-6 text-sm text-zinc-600 dark:text-zinc-400">
        {last
          ? `Last change: ${last.kind === 'undo' ? 'undo of ' : ''}${sectionNames(last.changed) || 'no sections'} — by ${last.by ?? 'N/A'}, ${formatDate(last.at)}`
          : 'The page shows its original content; nothing has been changed yet.'}
        {last && !state.canUndo ? ' Nothing left to undo.' : ''}
      </p>
      {stale ? (
        <div
          role="alert"
          className="mb-6 flex flex-wrap items-center justify-between gap-3 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
        >
          <p>{siteMsg.stale}</p>
          <Button variant="secondary" onClick={() => void reload()}>
            Load the latest version
          </Button>
        </div>
      ) : null}

      <form onSubmit={onSubmit} noValidate className="space-y-6">
        <Section title="Hero" description="The first screen: the studio's line over its image.">
          <TextField
            label="Hero line"
            hint="The words after the last comma are drawn in the accent colour."
            error={errors.hero?.line?.message}
            autoComplete="off"
            {...register('hero.line')}
          />
          <TextList
            form={form}
            name="hero.services"
            itemLabel="Service"
            addLabel="Add service"
            max={siteLimits.servicesMax}
          />
          <div className="grid gap-6 md:grid-cols-2">
            <HeroImage
              form={form}
              which="wideImage"
              images={images}
              addImage={addImage}
              onBusyChange={onBusyChange}
            />
            <HeroImage
              form={form}
              which="mobileImage"
              images={images}
              addImage={addImage}
              onBusyChange={onBusyChange}
            />
          </div>
        </Section>

        <Section
          title="Clients"
          description="Logos in the order the page shows them. The name is read out for the logo. Drag a row by its handle, or focus the handle and use Space and the arrow keys."
        >
          <ClientsEditor
            form={form}
            images={images}
            addImage={addImage}
            onBusyChange={onBusyChange}
          />
        </Section>

        <Section title="About">
          <TextAreaField
            label="Headline"
            rows={2}
            error={errors.about?.lead?.message}
            {...register('about.lead')}
          />
          <TextList
            form={form}
            name="about.paragraphs"
            itemLabel="Paragraph"
            addLabel="Add paragraph"
            max={siteLimits.paragraphsMax}
            multiline
          />
          <TextAreaField
            label="Mission (optional)"
            rows={2}
            error={errors.about?.mission?.message}
            {...register('about.mission')}
          />
        </Section>

        <Section title="Contacts" description="The footer's people, with tel: and mailto: links.">
          <TextAreaField
            label="Intro (optional)"
            rows={2}
            error={errors.contact?.intro?.message}
            {...register('contact.intro')}
          />
          <TextField
            label="Address line (optional)"
            error={errors.contact?.address?.message}
            autoComplete="off"
            {...register('contact.address')}
          />
          <TeamEditor form={form} />
        </Section>

        <Section
          title="Playback"
          description="How loud works play on the public page, their pages, review links, the embed and the dashboard's player."
        >
          <PlaybackEditor form={form} />
        </Section>

        <div className="sticky bottom-0 z-10 -mx-4 flex flex-wrap items-center justify-end gap-3 border-zinc-200 border-t bg-zinc-50/95 px-4 py-3 backdrop-blur sm:-mx-6 sm:px-6 dark:border-ink-700 dark:bg-ink-950/95">
          <p className="mr-auto text-sm text-zinc-600 dark:text-zinc-400" aria-live="polite">
            {converting > 0
              ? 'Converting an image…'
              : formState.isDirty
                ? 'Unsaved changes'
                : 'All changes saved'}
          </p>
          {formState.isDirty ? (
            <Button variant="ghost" disabled={saving} onClick={() => reset()}>
              Discard changes
            </Button>
          ) : null}
          <Button type="submit" disabled={!formState.isDirty || saving || converting > 0}>
            {saving ? 'Saving...' : 'Save changes'}
          </Button>
        </div>
      </form>

      {confirmUndo ? (
        <Dialog
          role="alertdialog"
          size="sm"
          title="Undo last change"
          description={`The page goes back to how it was before the change${
            next
              ? ` to ${sectionNames(next.changed) || 'no sections'} by ${next.by ?? 'N/A'}, ${formatDate(next.at)}`
              : ''
          }. ${formState.isDirty ? 'Your unsaved changes on this page are discarded. ' : ''}Each undo goes one change further back.`}
          onClose={() => (undo.isPending ? undefined : setConfirmUndo(false))}
        >
          <div className="flex justify-end gap-3 px-5 py-4">
            <Button
              variant="secondary"
              onClick={() => setConfirmUndo(false)}
              disabled={undo.isPending}
              data-autofocus
            >
              Cancel
            </Button>
            <Button onClick={() => void runUndo()} disabled={undo.isPending}>
              {undo.isPending ? 'Undoing...' : 'Undo'}
            </Button>
          </div>
        </Dialog>
      ) : null}
    </>
  )
}

function HeroImage(props: {
  form: UseFormReturn<SiteForm>
  which: 'wideImage' | 'mobileImage'
  images: Record<string, SiteImage>
  addImage: (image: SiteImage) => void
  onBusyChange: (busy: boolean) => void
}) {
  const { form, which, images, addImage, onBusyChange } = props
  const id = form.watch(`hero.${which}`)
  const wide = which === 'wideImage'
  return (
    <ImageField
      purpose={wide ? 'heroWide' : 'heroMobile'}
      label={wide ? 'Wide hero image' : 'Mobile hero image'}
      hint={
        wide
          ? 'Screens 768 px and wider. JPEG, PNG or WebP, at least 1280 px wide (2560 px is best), up to 10 MB.'
          : 'Screens under 768 px. JPEG, PNG or WebP in portrait, at least 480 px wide (1080 px is best).'
      }
      image={images[id ?? '']}
      error={form.formState.errors.hero?.[which]?.message}
      onBusyChange={onBusyChange}
      onUploaded={(image) => {
        addImage(image)
        form.setValue(`hero.${which}`, image.id, { shouldDirty: true })
      }}
    />
  )
}

// The upload page's optional Captions section: tracks added one by one, each a WebVTT or SRT file
// (FileField), a language tag and the label viewers pick in the player. The rows live in the
// video form (react-hook-form's field array) and its one zod resolver checks them.
import { CAPTIONS_PER_VIDEO_MAX } from '@contract/captions.ts'
import { useEffect, useId, useRef, useState } from 'react'
import { type UseFormReturn, useFieldArray, useWatch } from 'react-hook-form'
import { TextField } from '../components/text-field.tsx'
import { Button, FieldError, Icons } from '../components/ui.tsx'
import { emptyCaptionRow, labelForLanguage } from './caption-form-schema.ts'
import { FileField } from './file-field.tsx'
import { LanguageSuggestions } from './language-suggestions.tsx'
import type { VideoFormInput, VideoFormOutput } from './video-form-schema.ts'

type Form = UseFormReturn<VideoFormInput, unknown, VideoFormOutput>

export function CaptionFields({ form, busy }: { form: Form; busy: boolean }) {
  const {
    control,
    register,
    setValue,
    getValues,
    trigger,
    formState: { errors },
  } = form
  const { fields, append, remove } = useFieldArray({ control, name: 'captions' })
  const rows = useWatch({ control, name: 'captions' }) ?? []
  const headingId = useId()
  const suggestionsId = useId()
  const list = useRef<HTMLUListElement>(null)
  const addButton = useRef<HTMLButtonElement>(null)
  // After adding a row its file picker takes focus; after removing one, the Add button does.
  const [focusRow, setFocusRow] = useState<number | null>(null)
  useEffect(() => {
    if (focusRow === null) return
    setFocusRow(null)
    const row = list.current?.children[focusRow]
    if (row) row.querySelector<HTMLInputElement>('input[type="file"]')?.focus()
    else addButton.current?.focus()
  }, [focusRow])

  const full = fields.length >= CAPTIONS_PER_VIDEO_MAX
  const listError = errors.captions?.root?.message ?? errors.captions?.message

  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <div>
        <h2 id={headingId} className="font-medium text-sm">
          Captions <span className="font-normal text-zinc-600 dark:text-zinc-400">(optional)</span>
        </h2>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          Subtitles viewers can turn on in the player: one WebVTT or SRT file per language.
        </p>
      </div>
      {fields.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">No captions yet</p>
      ) : (
        <ul ref={list} className="space-y-3">
          {fields.map((field, index) => {
            const rowErrors = errors.captions?.[index]
            const file = rows[index]?.file
            const language = register(`captions.${index}.language`)
            const n = index + 1
            return (
              <li
                key={field.id}
                className="rounded-lg border border-zinc-200 p-3 dark:border-ink-700"
              >
                <fieldset className="min-w-0">
                  <legend className="mb-2 font-medium text-sm">Track {n}</legend>
                  <div className="grid gap-3 sm:grid-cols-2">
                    <FileField
                      kind="captions"
                      label="Caption file"
                      mode="create"
                      file={file}
                      error={rowErrors?.file?.message}
                      disabled={busy}
                      onChoose={(chosen) => {
                        setValue(`captions.${index}.file`, chosen, { shouldDirty: true })
                        void trigger(`captions.${index}.file`)
                      }}
                      onRemove={() => {
                        setValue(`captions.${index}.file`, undefined, { shouldDirty: true })
                        form.clearErrors(`captions.${index}.file`)
                      }}
                    />
                    <div className="space-y-3">
                      <TextField
                        label="Language"
                        hint="A language tag: en, fr, pt-BR…"
                        list={suggestionsId}
                        autoComplete="off"
                        spellCheck={false}
                        disabled={busy}
                        inputClassName="min-h-11"
                        error={rowErrors?.language?.message}
                        {...language}
                        onChange={(event) => {
                          const before = getValues(`captions.${index}.language`) ?? ''
                          void language.onChange(event)
                          // A label to start from: the language's name, until one is typed.
                          const label = labelForLanguage(
                            getValues(`captions.${index}.label`) ?? '',
                            before,
                            event.target.value,
                          )
                          if (label !== null) setValue(`captions.${index}.label`, label)
                        }}
                      />
                      <TextField
                        label="Label"
                        hint='What viewers pick, e.g. "English (SDH)".'
                        autoComplete="off"
                        disabled={busy}
                        inputClassName="min-h-11"
                        error={rowErrors?.label?.message}
                        {...register(`captions.${index}.label`)}
                      />
                    </div>
                  </div>
                  <div className="mt-2 flex justify-end">
                    <Button
                      variant="ghost"
                      className="min-h-11 text-red-700 dark:text-red-400"
                      disabled={busy}
                      aria-label={`Remove track ${n}`}
                      onClick={() => {
                        remove(index)
                        setFocusRow(fields.length > 1 ? Math.max(0, index - 1) : -1)
                      }}
                    >
                      <Icons.trash className="size-4" /> Remove track
                    </Button>
                  </div>
                </fieldset>
              </li>
            )
          })}
        </ul>
      )}
      <FieldError id={`${headingId}-error`} message={listError} />
      <Button
        ref={addButton}
        variant="secondary"
        className="min-h-11"
        disabled={busy || full}
        onClick={() => {
          append(emptyCaptionRow(), { shouldFocus: false })
          setFocusRow(fields.length)
        }}
      >
        <Icons.plus className="size-4" /> Add captions
      </Button>
      <LanguageSuggestions id={suggestionsId} />
    </section>
  )
}

// The Site page's playback setting (docs/dashboard.md#site): the loudness every player of the
// site levels louder works down to, or off. The rule (−23 … −9 LUFS, whole or half dB) is the
// shared schema's; the form holds null for off.
import { DEFAULT_LOUDNESS_REFERENCE, LOUDNESS_REFERENCE } from '@contract/loudness.ts'
import type { SiteForm } from '@contract/site.ts'
import { useEffect, useId, useState } from 'react'
import type { UseFormReturn } from 'react-hook-form'
import { TextField } from '../components/text-field.tsx'

export function PlaybackEditor({ form }: { form: UseFormReturn<SiteForm> }) {
  const checkboxId = useId()
  const reference = form.watch('playback.loudnessReference')
  const on = reference !== null
  // What the number field shows, kept while levelling is off so turning it on again restores it.
  const [typed, setTyped] = useState(String(reference ?? DEFAULT_LOUDNESS_REFERENCE))
  // An undo, a discard or a reload brings another value: the field follows it.
  useEffect(() => {
    if (typeof reference === 'number' && !Number.isNaN(reference)) {
      setTyped((shown) => (Number(shown) === reference ? shown : String(reference)))
    }
  }, [reference])
  const set = (value: number | null) =>
    form.setValue('playback.loudnessReference', value, { shouldDirty: true, shouldValidate: true })
  const error = form.formState.errors.playback?.loudnessReference?.message

  return (
    <>
      <div className="flex items-start gap-3">
        <input
          id={checkboxId}
          type="checkbox"
          className="mt-0.5 size-5 accent-amber-500"
          checked={on}
          onChange={(e) => set(e.target.checked ? Number(typed) : null)}
        />
        <label htmlFor={checkboxId} className="text-sm">
          <span className="block font-medium">Level loud works</span>
          <span className="text-zinc-500 dark:text-zinc-400">
            A work mastered louder than the reference plays turned down to it on every player of the
            site; a quieter one plays as mixed. The files are not changed, and visitors' own volume
            still works.
          </span>
        </label>
      </div>
      <TextField
        label="Reference loudness (LUFS)"
        hint={`From ${LOUDNESS_REFERENCE.min} to ${LOUDNESS_REFERENCE.max}, in whole or half dB. −14 is what the common streaming services play at.`}
        type="number"
        inputMode="decimal"
        step={LOUDNESS_REFERENCE.step}
        min={LOUDNESS_REFERENCE.min}
        max={LOUDNESS_REFERENCE.max}
        disabled={!on}
        value={typed}
        error={on ? error : undefined}
        className="max-w-xs"
        onChange={(e) => {
          setTyped(e.target.value)
          // An empty or partial number is NaN, which the schema refuses with its message.
          set(e.target.value.trim() === '' ? Number.NaN : Number(e.target.value))
        }}
      />
    </>
  )
}

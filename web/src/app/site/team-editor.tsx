// The team members shown in the contact footer: name, job title, phone and e-mail each.

import { type SiteForm, siteLimits } from '@contract/site.ts'
import { type UseFormReturn, useFieldArray } from 'react-hook-form'
import { TextField } from '../components/text-field.tsx'
import { AddButton, RemoveButton } from './fields.tsx'

export function TeamEditor({ form }: { form: UseFormReturn<SiteForm> }) {
  const { control, register, formState } = form
  const { fields, append, remove } = useFieldArray({ control, name: 'contact.team' })
  const errors = formState.errors.contact?.team
  return (
    <div>
      <ol className="grid gap-4 lg:grid-cols-2">
        {fields.map((field, index) => {
          const e = errors?.[index]
          const n = index + 1
          return (
            <li key={field.id}>
              <fieldset className="rounded-lg border border-zinc-200 p-4 dark:border-ink-700">
                <legend className="flex w-full items-center justify-between gap-2 px-1 font-medium text-sm">
                  Team member {n}
                </legend>
                <div className="grid gap-3 sm:grid-cols-2">
                  <TextField
                    label={`Name (member ${n})`}
                    autoComplete="off"
                    error={e?.name?.message}
                    {...register(`contact.team.${index}.name`)}
                  />
                  <TextField
                    label={`Job title (member ${n})`}
                    autoComplete="off"
                    error={e?.title?.message}
                    {...register(`contact.team.${index}.title`)}
                  />
                  <TextField
                    label={`Phone (member ${n})`}
                    type="tel"
                    autoComplete="off"
                    error={e?.phone?.message}
                    {...register(`contact.team.${index}.phone`)}
                  />
                  <TextField
                    label={`Email (member ${n})`}
                    type="email"
                    autoComplete="off"
                    error={e?.email?.message}
                    {...register(`contact.team.${index}.email`)}
                  />
                </div>
                <div className="mt-2 flex justify-end">
                  <RemoveButton label={`Remove team member ${n}`} onClick={() => remove(index)} />
                </div>
              </fieldset>
            </li>
          )
        })}
      </ol>
      {errors?.root?.message || errors?.message ? (
        <p role="alert" className="mt-2 text-red-600 text-sm dark:text-red-400">
          {errors.root?.message ?? errors.message}
        </p>
      ) : null}
      <div className="mt-3">
        <AddButton
          onClick={() =>
            append({ name: '', title: '', phone: '', email: '' }, { shouldFocus: true })
          }
          disabled={fields.length >= siteLimits.teamMax}
        >
          Add team member
        </AddButton>
      </div>
    </div>
  )
}

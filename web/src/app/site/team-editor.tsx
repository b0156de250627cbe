// The team members shown in the contact footer: name, job title, phone and e-mail each.

import { type SiteForm, siteLimits } from '@contract/site.ts'
import { type UseFormReturn, useFieldArray } from 'react-hook-form'
import { ListFooter, RemoveButton } from '../components/list-editor.tsx'
import { TextField } from '../components/text-field.tsx'

/** A member's fields, in the order the form shows them. */
const MEMBER_FIELDS: readonly {
  key: 'name' | 'title' | 'phone' | 'email'
  label: string
  type?: 'tel' | 'email'
}[] = [
  { key: 'name', label: 'Name' },
  { key: 'title', label: 'Job title' },
  { key: 'phone', label: 'Phone', type: 'tel' },
  { key: 'email', label: 'Email', type: 'email' },
]

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
                  {MEMBER_FIELDS.map(({ key, label, type }) => (
                    <TextField
                      key={key}
                      label={`${label} (member ${n})`}
                      type={type}
                      autoComplete="off"
                      error={e?.[key]?.message}
                      {...register(`contact.team.${index}.${key}`)}
                    />
                  ))}
                </div>
                <div className="mt-2 flex justify-end">
                  <RemoveButton label={`Remove team member ${n}`} onClick={() => remove(index)} />
                </div>
              </fieldset>
            </li>
          )
        })}
      </ol>
      <ListFooter
        errors={errors}
        addLabel="Add team member"
        onAdd={() => append({ name: '', title: '', phone: '', email: '' }, { shouldFocus: true })}
        full={fields.length >= siteLimits.teamMax}
      />
    </div>
  )
}

// A list of short texts (the hero's services, the About paragraphs): edit, add, remove.

import type { SiteForm } from '@contract/site.ts'
import {
  type ArrayPath,
  type FieldArray,
  type Path,
  type UseFormReturn,
  useFieldArray,
} from 'react-hook-form'
import { ListFooter, RemoveButton } from '../components/list-editor.tsx'
import { TextField } from '../components/text-field.tsx'
import { TextAreaField } from './fields.tsx'

type ListName = 'hero.services' | 'about.paragraphs'

type Props = {
  form: UseFormReturn<SiteForm>
  name: ListName
  /** The label of one item, e.g. "Service"; items are numbered. */
  itemLabel: string
  addLabel: string
  max: number
  multiline?: boolean
}

export function TextList({ form, name, itemLabel, addLabel, max, multiline }: Props) {
  const { control, register, formState } = form
  const { fields, append, remove } = useFieldArray({ control, name: name as ArrayPath<SiteForm> })
  const [group, list] = name.split('.') as ['hero', 'services'] | ['about', 'paragraphs']
  const errors = (formState.errors[group] as Record<string, unknown> | undefined)?.[list] as
    | ({ message?: string; root?: { message?: string } } & Record<
        number,
        { value?: { message?: string } }
      >)
    | undefined
  return (
    <fieldset>
      <legend className="mb-2 font-medium text-sm">{`${itemLabel}s`}</legend>
      <ol className="space-y-2">
        {fields.map((field, index) => {
          const path = `${name}.${index}.value` as Path<SiteForm>
          const label = `${itemLabel} ${index + 1}`
          const error = errors?.[index]?.value?.message
          return (
            <li key={field.id} className="flex items-start gap-2">
              {multiline ? (
                <TextAreaField
                  label={label}
                  error={error}
                  rows={4}
                  className="flex-1"
                  {...register(path)}
                />
              ) : (
                <TextField
                  label={label}
                  error={error}
                  className="flex-1"
                  autoComplete="off"
                  {...register(path)}
                />
              )}
              <div className="mt-6">
                <RemoveButton
                  label={`Remove ${label.toLowerCase()}`}
                  onClick={() => remove(index)}
                />
              </div>
            </li>
          )
        })}
      </ol>
      <ListFooter
        errors={errors}
        addLabel={addLabel}
        onAdd={() =>
          append({ value: '' } as FieldArray<SiteForm, ArrayPath<SiteForm>>, { shouldFocus: true })
        }
        full={fields.length >= max}
        spacing="mt-2"
      />
    </fieldset>
  )
}

// The client logo list: name (the logo's alt text), logo, remove, and reordering by drag and drop
// with the mouse, touch or keyboard (dnd-kit: focus a handle, Space to lift, arrows to move,
// Space to drop, Escape to cancel), each move announced by the client's name.

import { type SiteForm, type SiteImage, siteLimits } from '@contract/site.ts'
import { useSortable } from '@dnd-kit/sortable'
import { CSS } from '@dnd-kit/utilities'
import { type Control, type UseFormReturn, useFieldArray, useWatch } from 'react-hook-form'
import { ListFooter, RemoveButton } from '../components/list-editor.tsx'
import { SortableList } from '../components/sortable-list.tsx'
import { TextField } from '../components/text-field.tsx'
import { Icons } from '../components/ui.tsx'
import { ImageField } from './image-field.tsx'

type Props = {
  form: UseFormReturn<SiteForm>
  images: Record<string, SiteImage>
  addImage: (image: SiteImage) => void
  onBusyChange: (busy: boolean) => void
}

export function ClientsEditor({ form, images, addImage, onBusyChange }: Props) {
  const { control, register, setValue, formState } = form
  const { fields, append, remove, move } = useFieldArray({ control, name: 'clients' })
  const names = useWatch({ control, name: 'clients' })
  const errors = formState.errors.clients

  const ids = fields.map((f) => f.id)
  const nameOf = (id: string) => names?.[ids.indexOf(id)]?.name || 'this client'

  return (
    <div>
      <SortableList ids={ids} nameOf={nameOf} noun="a client" onMove={move}>
        <ol aria-label="Clients, in the order the page shows them" className="space-y-2">
          {fields.map((field, index) => (
            <ClientRow
              key={field.id}
              id={field.id}
              index={index}
              control={control}
              name={names?.[index]?.name ?? ''}
              image={images[names?.[index]?.logo ?? '']}
              nameField={register(`clients.${index}.name`)}
              nameError={errors?.[index]?.name?.message}
              logoError={errors?.[index]?.logo?.message}
              onLogo={(image) => {
                addImage(image)
                setValue(`clients.${index}.logo`, image.id, {
                  shouldDirty: true,
                  shouldValidate: formState.isSubmitted,
                })
              }}
              onRemove={() => remove(index)}
              onBusyChange={onBusyChange}
            />
          ))}
        </ol>
      </SortableList>
      <ListFooter
        errors={errors}
        addLabel="Add client"
        onAdd={() => append({ name: '', logo: '' }, { shouldFocus: true })}
        full={fields.length >= siteLimits.clientsMax}
      />
    </div>
  )
}

function ClientRow(props: {
  id: string
  index: number
  control: Control<SiteForm>
  name: string
  image: SiteImage | undefined
  nameField: ReturnType<UseFormReturn<SiteForm>['register']>
  nameError?: string
  logoError?: string
  onLogo: (image: SiteImage) => void
  onRemove: () => void
  onBusyChange: (busy: boolean) => void
}) {
  const { id, index, name, image, nameField, nameError, logoError } = props
  const {
    attributes,
    listeners,
    setNodeRef,
    setActivatorNodeRef,
    transform,
    transition,
    isDragging,
  } = useSortable({ id })
  const label = name || `client ${index + 1}`
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      className={`flex flex-wrap items-start gap-3 rounded-lg border border-zinc-200 bg-white p-3 sm:flex-nowrap dark:border-ink-700 dark:bg-ink-900 ${
        isDragging ? 'relative z-10 shadow-lg ring-2 ring-amber-500' : ''
      }`}
    >
      <button
        type="button"
        ref={setActivatorNodeRef}
        {...attributes}
        {...listeners}
        aria-label={`Move ${label}`}
        className="mt-1.5 inline-flex size-9 shrink-0 cursor-grab touch-none items-center justify-center rounded-lg text-zinc-500 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-amber-500 active:cursor-grabbing dark:text-zinc-400 dark:hover:bg-ink-800"
      >
        <Icons.grip />
      </button>
      <TextField
        label={`Client ${index + 1} name`}
        className="min-w-40 flex-1"
        error={nameError}
        autoComplete="off"
        {...nameField}
      />
      <div className="sm:mt-6">
        <ImageField
          compact
          purpose="logo"
          label={`${label} logo`}
          image={image}
          onUploaded={props.onLogo}
          error={logoError}
          onBusyChange={props.onBusyChange}
        />
      </div>
      <div className="sm:mt-6">
        <RemoveButton label={`Remove ${label}`} onClick={props.onRemove} />
      </div>
    </li>
  )
}

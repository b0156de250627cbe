// The client logo list: name (the logo's alt text), logo, remove, and reordering by drag and drop
// with the mouse, touch or keyboard (dnd-kit: focus a handle, Space to lift, arrows to move,
// Space to drop, Escape to cancel), each move announced by the client's name.
import {
  type Announcements,
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core'
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable'
import { CSS } from '@dnd-kit/utilities'
import { type SiteForm, type SiteImage, siteLimits } from '@shared/site.ts'
import { type Control, type UseFormReturn, useFieldArray, useWatch } from 'react-hook-form'
import { TextField } from '../components/TextField.tsx'
import { AddButton, RemoveButton } from './fields.tsx'
import { ImageField } from './ImageField.tsx'
import { SiteIcons } from './icons.tsx'

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
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  )
  const errors = formState.errors.clients

  const indexOf = (id: unknown) => fields.findIndex((f) => f.id === id)
  const nameOf = (id: unknown) => names?.[indexOf(id)]?.name || 'this client'
  const position = (id: unknown) => `position ${indexOf(id) + 1} of ${fields.length}`
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${nameOf(active.id)}, at ${position(active.id)}.`,
    onDragOver: ({ active, over }) =>
      over
        ? `${nameOf(active.id)} moved to ${position(over.id)}.`
        : `${nameOf(active.id)} is outside the list.`,
    onDragEnd: ({ active, over }) =>
      over
        ? `${nameOf(active.id)} dropped at ${position(over.id)}.`
        : `${nameOf(active.id)} dropped.`,
    onDragCancel: ({ active }) => `Moving ${nameOf(active.id)} cancelled.`,
  }

  function onDragEnd({ active, over }: DragEndEvent) {
    if (!over || active.id === over.id) return
    move(indexOf(active.id), indexOf(over.id))
  }

  return (
    <div>
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragEnd={onDragEnd}
        accessibility={{
          announcements,
          screenReaderInstructions: {
            draggable:
              'To move a client, press Space or Enter, move it with the arrow keys, then press Space or Enter again to drop it, or Escape to cancel.',
          },
        }}
      >
        <SortableContext items={fields.map((f) => f.id)} strategy={verticalListSortingStrategy}>
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
        </SortableContext>
      </DndContext>
      {errors?.root?.message || errors?.message ? (
        <p role="alert" className="mt-2 text-red-600 text-sm dark:text-red-400">
          {errors.root?.message ?? errors.message}
        </p>
      ) : null}
      <div className="mt-3">
        <AddButton
          onClick={() => append({ name: '', logo: '' }, { shouldFocus: true })}
          disabled={fields.length >= siteLimits.clientsMax}
        >
          Add client
        </AddButton>
      </div>
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
        <SiteIcons.grip />
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

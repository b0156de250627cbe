// Reordering by drag and drop with the mouse, touch or keyboard (dnd-kit: focus a handle, Space
// or Enter to lift, arrows to move, Space or Enter to drop, Escape to cancel), each move
// announced by the item's name and place. Used by the Site page's client logos and the Manage
// page's rows.
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
  verticalListSortingStrategy,
} from '@dnd-kit/sortable'
import type { ReactNode } from 'react'

type Props = {
  /** The items' ids, in their order now. */
  ids: string[]
  /** What an item is called out loud ("Nike", "Night Drive"). */
  nameOf: (id: string) => string
  /** What the list holds, for the instructions ("a client", "a video in the public order"). */
  noun: string
  /** An item dropped somewhere else: from its index to the other's. */
  onMove: (from: number, to: number) => void
  children: ReactNode
}

export function SortableList({ ids, nameOf, noun, onMove, children }: Props) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  )
  const name = (id: unknown) => nameOf(String(id))
  const position = (id: unknown) => `position ${ids.indexOf(String(id)) + 1} of ${ids.length}`
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${name(active.id)}, at ${position(active.id)}.`,
    onDragOver: ({ active, over }) =>
      over
        ? `${name(active.id)} moved to ${position(over.id)}.`
        : `${name(active.id)} is outside the list.`,
    onDragEnd: ({ active, over }) =>
      over ? `${name(active.id)} dropped at ${position(over.id)}.` : `${name(active.id)} dropped.`,
    onDragCancel: ({ active }) => `Moving ${name(active.id)} cancelled.`,
  }
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return
    onMove(ids.indexOf(String(active.id)), ids.indexOf(String(over.id)))
  }
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{
        // Its hidden instructions and live region go to the body: inside a list or a table they
        // would be children a list or a table may not have.
        container: document.body,
        announcements,
        screenReaderInstructions: {
          draggable: `To move ${noun}, press Space or Enter, move it with the arrow keys, then press Space or Enter again to drop it, or Escape to cancel.`,
        },
      }}
    >
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        {children}
      </SortableContext>
    </DndContext>
  )
}

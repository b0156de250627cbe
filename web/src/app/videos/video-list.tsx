// The list of one page of videos: a table on wide screens, cards on small ones (docs/dashboard.md).
// Rows are put in the public order by drag and drop, with the mouse, touch or keyboard (dnd-kit:
// focus a row's handle, Space to lift, arrows to move, Space to drop, Escape to cancel), and each
// has its 'Published' switch.
import { arrayMove, useSortable } from '@dnd-kit/sortable'
import { CSS } from '@dnd-kit/utilities'
import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import type { Video } from '../../api.ts'
import { SortableList } from '../components/sortable-list.tsx'
import { columnsOf, TableHead } from '../components/table-head.tsx'
import { IconButton, Icons } from '../components/ui.tsx'
import { cn } from '../lib/cn.ts'
import { formatDate } from '../lib/format.ts'
import { LoudnessLine } from './loudness-line.tsx'
import { ProcessingStatus } from './processing-status.tsx'

interface VideoListProps {
  videos: Video[]
  offset: number
  selected: readonly string[]
  onToggle: (id: string) => void
  onPlay: (video: Video) => void
  onEdit: (video: Video) => void
  /** "Share privately…": private review links to the video (ShareDialog). */
  onShare: (video: Video) => void
  onDelete: (video: Video) => void
  onRetry: (video: Video) => void
  /** Ids whose Retry is on its way. */
  retrying: readonly string[]
  /** The page's ids in their new order, after a drag. */
  onReorder: (ids: string[]) => void
  onPublish: (video: Video, published: boolean) => void
  /** Ids whose Published change is on its way. */
  publishing: readonly string[]
}

/** Sortable rows and cards: one list per layout, so the two never share ids. */
function Sortable({
  videos,
  onReorder,
  children,
}: Pick<VideoListProps, 'videos' | 'onReorder'> & { children: ReactNode }) {
  const ids = videos.map((v) => v._id)
  return (
    <SortableList
      ids={ids}
      nameOf={(id) => videos.find((v) => v._id === id)?.title ?? 'this video'}
      noun="a video in the public order"
      onMove={(from, to) => onReorder(arrayMove(ids, from, to))}
    >
      {children}
    </SortableList>
  )
}

/** A row's or card's place in the drag: its node, its moving style and its handle's props. */
function useRowDrag(video: Video) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({
    id: video._id,
  })
  return {
    ref: setNodeRef,
    style: {
      transform: CSS.Translate.toString(transform),
      transition,
      position: isDragging ? ('relative' as const) : undefined,
      zIndex: isDragging ? 10 : undefined,
    },
    handle: (
      <button
        type="button"
        {...attributes}
        {...listeners}
        aria-label={`Reorder ${video.title}`}
        className="inline-flex size-11 shrink-0 cursor-grab touch-none items-center justify-center rounded-lg text-zinc-500 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-amber-500 active:cursor-grabbing dark:text-zinc-400 dark:hover:bg-ink-800"
      >
        <Icons.grip />
      </button>
    ),
  }
}

/**
 * The 'Published' switch: visitors see the video, or only the dashboard does. The button is the
 * whole 44 px target around the drawn track, and its `label` (the cards' visible "Published").
 */
function PublishSwitch({
  video,
  onPublish,
  busy,
  label,
}: Pick<VideoListProps, 'onPublish'> & { video: Video; busy: boolean; label?: string }) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={video.published}
      aria-label={`Published: ${video.title}`}
      disabled={busy}
      onClick={() => onPublish(video, !video.published)}
      className={cn(
        'group inline-flex min-h-11 min-w-11 shrink-0 items-center justify-center gap-2 rounded-lg focus-visible:outline-2 focus-visible:outline-amber-500 disabled:opacity-60',
        label && 'px-1.5 hover:bg-zinc-100 dark:hover:bg-ink-800',
      )}
    >
      <span
        aria-hidden="true"
        className={`relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors ${
          video.published ? 'bg-amber-500' : 'bg-zinc-300 dark:bg-ink-700'
        }`}
      >
        <span
          className={`inline-block size-5 rounded-full bg-white shadow transition-transform ${
            video.published ? 'translate-x-5' : 'translate-x-0.5'
          }`}
        />
      </span>
      {label}
    </button>
  )
}

function Thumb({
  video,
  onPlay,
  className,
}: {
  video: Video
  onPlay: (v: Video) => void
  className: string
}) {
  return (
    <button
      type="button"
      onClick={() => onPlay(video)}
      aria-label={`Play ${video.title}`}
      className={cn(
        'group relative shrink-0 overflow-hidden rounded-md bg-zinc-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-500 dark:bg-ink-800',
        className,
      )}
    >
      <img src={video.thumbnailUrl} alt="" loading="lazy" className="size-full object-cover" />
      <span className="absolute inset-0 flex items-center justify-center bg-black/0 text-white opacity-0 transition group-hover:bg-black/40 group-hover:opacity-100 group-focus-visible:bg-black/40 group-focus-visible:opacity-100">
        <Icons.play className="size-6" />
      </span>
    </button>
  )
}

const actionButton =
  'inline-flex size-11 items-center justify-center rounded-lg focus-visible:outline-2 focus-visible:outline-amber-500'

// The table (wide screens) and the cards (small screens) share these controls.
const neutral = 'text-zinc-700 hover:bg-zinc-100 dark:text-zinc-200 dark:hover:bg-ink-800'
const danger = 'text-red-600 hover:bg-red-50 dark:text-red-400 dark:hover:bg-red-950'

/** A row's Edit, Share privately and Delete, in that order. */
function rowActions(video: Video, props: VideoListProps) {
  return [
    {
      key: 'edit',
      label: `Edit ${video.title}`,
      tone: neutral,
      icon: <Icons.edit />,
      act: props.onEdit,
    },
    {
      key: 'share',
      label: `Share privately: ${video.title}`,
      title: 'Share privately…',
      tone: neutral,
      icon: <Icons.share />,
      act: props.onShare,
    },
    {
      key: 'delete',
      label: `Delete ${video.title}`,
      tone: danger,
      icon: <Icons.trash />,
      act: props.onDelete,
    },
  ].map(({ key, label, title = null, tone, icon, act }) => (
    <IconButton
      key={key}
      label={label}
      title={title}
      className={`${actionButton} ${tone}`}
      onClick={() => act(video)}
    >
      {icon}
    </IconButton>
  ))
}

function SelectBox({
  video,
  selected,
  onToggle,
  id,
}: Pick<VideoListProps, 'selected' | 'onToggle'> & { video: Video; id?: string }) {
  return (
    <input
      id={id}
      type="checkbox"
      aria-label={`Select ${video.title}`}
      checked={selected.includes(video._id)}
      onChange={() => onToggle(video._id)}
      className="size-4 accent-amber-500"
    />
  )
}

export function VideoList(props: VideoListProps) {
  const { videos, onReorder } = props
  return (
    <>
      <div className="hidden overflow-x-auto md:block">
        <table className="w-full text-left text-sm">
          <TableHead
            columns={[
              { label: <span className="sr-only">Order</span>, className: 'px-2 py-3' },
              ...columnsOf('px-2 py-3', ['#', 'Thumbnail']),
              { label: 'Title', className: 'w-full px-2 py-3' },
              ...columnsOf('px-2 py-3', ['Updated', 'Created']),
              ...columnsOf('px-2 py-3 text-center', [
                'Published',
                'Edit',
                'Share',
                'Delete',
                'Select',
              ]),
            ]}
          />
          <tbody className="divide-y divide-zinc-200 dark:divide-ink-700">
            <Sortable videos={videos} onReorder={onReorder}>
              {videos.map((video, i) => (
                <TableRow key={video._id} {...props} video={video} index={i} />
              ))}
            </Sortable>
          </tbody>
        </table>
      </div>
      <ul className="space-y-3 md:hidden">
        <Sortable videos={videos} onReorder={onReorder}>
          {videos.map((video, i) => (
            <Card key={video._id} {...props} video={video} index={i} />
          ))}
        </Sortable>
      </ul>
    </>
  )
}

type RowProps = VideoListProps & { video: Video; index: number }

function Status({ video, onRetry, retrying }: RowProps) {
  return (
    <>
      <ProcessingStatus video={video} onRetry={onRetry} retrying={retrying.includes(video._id)} />
      <LoudnessLine video={video} />
      <OpenNotes video={video} />
    </>
  )
}

/** The work's open client notes, linking to its review page; absent until a read brings it. */
function OpenNotes({ video }: { video: Video }) {
  if (video.openNotes === undefined) return null
  const open = video.openNotes
  return (
    <Link
      to="/dashboard/videos/$id/review"
      params={{ id: video._id }}
      aria-label={`${open} open note${open === 1 ? '' : 's'}: review ${video.title}`}
      className={cn(
        // A 44 px target on the cards (below md), a compact line in the table.
        'mt-1 inline-flex min-h-11 min-w-11 items-center rounded-full text-xs hover:underline focus-visible:outline-2 focus-visible:outline-accent md:min-h-6 md:min-w-0',
        open > 0
          ? 'bg-amber-100 px-2 font-semibold text-amber-900 dark:bg-amber-400/20 dark:text-amber-200'
          : 'text-zinc-500 dark:text-zinc-400',
      )}
    >
      {open} open note{open === 1 ? '' : 's'}
    </Link>
  )
}

function TableRow(props: RowProps) {
  const { video, index, offset, selected, onToggle, onPlay } = props
  const drag = useRowDrag(video)
  return (
    <tr ref={drag.ref} style={drag.style} className="bg-white align-middle dark:bg-ink-900">
      <td className="px-1 py-3">{drag.handle}</td>
      <td className="px-2 py-3 text-zinc-500 tabular-nums dark:text-zinc-400">
        {offset + index + 1}
      </td>
      <td className="px-2 py-3">
        <Thumb video={video} onPlay={onPlay} className="h-12 w-20" />
      </td>
      <td className="max-w-0 px-2 py-3">
        <p className="line-clamp-2 break-words font-medium" title={video.title}>
          {video.title}
        </p>
        <Status {...props} />
      </td>
      <td className="whitespace-nowrap px-2 py-3 text-xs text-zinc-600 dark:text-zinc-300">
        {formatDate(video.updatedAt)}
      </td>
      <td className="whitespace-nowrap px-2 py-3 text-xs text-zinc-600 dark:text-zinc-300">
        {formatDate(video.createdAt)}
      </td>
      <td className="px-2 py-3 text-center">
        <PublishSwitch
          video={video}
          onPublish={props.onPublish}
          busy={props.publishing.includes(video._id)}
        />
      </td>
      {rowActions(video, props).map((button) => (
        <td key={button.key} className="px-2 py-3 text-center">
          {button}
        </td>
      ))}
      <td className="px-2 py-3 text-center">
        <SelectBox video={video} selected={selected} onToggle={onToggle} />
      </td>
    </tr>
  )
}

function Card(props: RowProps) {
  const { video, index, offset, selected, onToggle, onPlay } = props
  const drag = useRowDrag(video)
  return (
    <li
      ref={drag.ref}
      style={drag.style}
      className="rounded-xl border border-zinc-200 bg-white p-3 dark:border-ink-700 dark:bg-ink-900"
    >
      {/* Below 22rem the thumbnail takes the card's width above the text, which keeps a readable
          column. */}
      <div className="flex flex-col gap-3 min-[22rem]:flex-row">
        <Thumb
          video={video}
          onPlay={onPlay}
          className="aspect-video w-full min-[22rem]:aspect-auto min-[22rem]:h-20 min-[22rem]:w-32"
        />
        <div className="min-w-0 flex-1">
          <p className="text-xs text-zinc-500 tabular-nums dark:text-zinc-400">
            #{offset + index + 1}
          </p>
          <p className="line-clamp-2 break-words font-medium" title={video.title}>
            {video.title}
          </p>
          <dl className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">
            <div className="flex flex-wrap gap-x-1">
              <dt>Updated:</dt>
              <dd>{formatDate(video.updatedAt)}</dd>
            </div>
            <div className="flex flex-wrap gap-x-1">
              <dt>Created:</dt>
              <dd>{formatDate(video.createdAt)}</dd>
            </div>
          </dl>
          <Status {...props} />
        </div>
      </div>
      {/* Every control a 44 px target with its text inside it. The toggles and the actions wrap
          onto two lines where one is too narrow, the actions kept at the right, so a card never
          grows wider than the screen, and another action has room. */}
      <div className="mt-3 flex flex-wrap items-center justify-between gap-x-2 gap-y-1 border-zinc-200 border-t pt-2 dark:border-ink-700">
        <div className="flex items-center gap-1 text-sm">
          <label
            htmlFor={`select-card-${video._id}`}
            className="inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-lg px-1.5 hover:bg-zinc-100 dark:hover:bg-ink-800"
          >
            <SelectBox
              id={`select-card-${video._id}`}
              video={video}
              selected={selected}
              onToggle={onToggle}
            />
            <span aria-hidden="true">Select</span>
          </label>
          <PublishSwitch
            video={video}
            onPublish={props.onPublish}
            busy={props.publishing.includes(video._id)}
            label="Published"
          />
        </div>
        <div className="ml-auto flex items-center gap-1">
          {drag.handle}
          {rowActions(video, props)}
        </div>
      </div>
    </li>
  )
}

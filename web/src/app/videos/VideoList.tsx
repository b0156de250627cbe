// The list of one page of videos: a table on wide screens, cards on small ones (SPEC §2).
import type { Video } from '../../api.ts'
import { Icons } from '../components/ui.tsx'
import { cn } from '../lib/cn.ts'
import { formatDate } from '../lib/format.ts'
import { ProcessingStatus } from './ProcessingStatus.tsx'

interface VideoListProps {
  videos: Video[]
  offset: number
  selected: readonly string[]
  onToggle: (id: string) => void
  onPlay: (video: Video) => void
  onEdit: (video: Video) => void
  onDelete: (video: Video) => void
  onRetry: (video: Video) => void
  /** Ids whose Retry is on its way. */
  retrying: readonly string[]
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
  'inline-flex size-9 items-center justify-center rounded-lg focus-visible:outline-2 focus-visible:outline-amber-500'

// The table (wide screens) and the cards (small screens) share these controls.
function EditButton({ video, onEdit }: Pick<VideoListProps, 'onEdit'> & { video: Video }) {
  return (
    <button
      type="button"
      aria-label={`Edit ${video.title}`}
      onClick={() => onEdit(video)}
      className={`${actionButton} text-zinc-700 hover:bg-zinc-100 dark:text-zinc-200 dark:hover:bg-ink-800`}
    >
      <Icons.edit />
    </button>
  )
}

function DeleteButton({ video, onDelete }: Pick<VideoListProps, 'onDelete'> & { video: Video }) {
  return (
    <button
      type="button"
      aria-label={`Delete ${video.title}`}
      onClick={() => onDelete(video)}
      className={`${actionButton} text-red-600 hover:bg-red-50 dark:text-red-400 dark:hover:bg-red-950`}
    >
      <Icons.trash />
    </button>
  )
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
  const { videos, offset, selected, onToggle, onPlay, onEdit, onDelete, onRetry, retrying } = props
  const status = (video: Video) => (
    <ProcessingStatus video={video} onRetry={onRetry} retrying={retrying.includes(video._id)} />
  )
  return (
    <>
      <div className="hidden overflow-x-auto md:block">
        <table className="w-full text-left text-sm">
          <thead className="border-zinc-200 border-b text-xs text-zinc-500 uppercase tracking-wide dark:border-ink-700 dark:text-zinc-400">
            <tr>
              <th scope="col" className="px-2 py-3">
                #
              </th>
              <th scope="col" className="px-2 py-3">
                Thumbnail
              </th>
              <th scope="col" className="w-full px-2 py-3">
                Title
              </th>
              <th scope="col" className="px-2 py-3">
                Updated
              </th>
              <th scope="col" className="px-2 py-3">
                Created
              </th>
              <th scope="col" className="px-2 py-3 text-center">
                Edit
              </th>
              <th scope="col" className="px-2 py-3 text-center">
                Delete
              </th>
              <th scope="col" className="px-2 py-3 text-center">
                Select
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-200 dark:divide-ink-700">
            {videos.map((video, i) => (
              <tr key={video._id} className="align-middle">
                <td className="px-2 py-3 text-zinc-500 tabular-nums">{offset + i + 1}</td>
                <td className="px-2 py-3">
                  <Thumb video={video} onPlay={onPlay} className="h-12 w-20" />
                </td>
                <td className="max-w-0 px-2 py-3">
                  <p className="line-clamp-2 break-words font-medium" title={video.title}>
                    {video.title}
                  </p>
                  {status(video)}
                </td>
                <td className="whitespace-nowrap px-2 py-3 text-xs text-zinc-600 dark:text-zinc-300">
                  {formatDate(video.updatedAt)}
                </td>
                <td className="whitespace-nowrap px-2 py-3 text-xs text-zinc-600 dark:text-zinc-300">
                  {formatDate(video.createdAt)}
                </td>
                <td className="px-2 py-3 text-center">
                  <EditButton video={video} onEdit={onEdit} />
                </td>
                <td className="px-2 py-3 text-center">
                  <DeleteButton video={video} onDelete={onDelete} />
                </td>
                <td className="px-2 py-3 text-center">
                  <SelectBox video={video} selected={selected} onToggle={onToggle} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="space-y-3 md:hidden">
        {videos.map((video, i) => (
          <li key={video._id} className="rounded-xl border border-zinc-200 p-3 dark:border-ink-700">
            <div className="flex gap-3">
              <Thumb video={video} onPlay={onPlay} className="h-20 w-32" />
              <div className="min-w-0 flex-1">
                <p className="text-xs text-zinc-500 tabular-nums">#{offset + i + 1}</p>
                <p className="line-clamp-2 break-words font-medium" title={video.title}>
                  {video.title}
                </p>
                <dl className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">
                  <div className="flex gap-1">
                    <dt>Updated:</dt>
                    <dd>{formatDate(video.updatedAt)}</dd>
                  </div>
                  <div className="flex gap-1">
                    <dt>Created:</dt>
                    <dd>{formatDate(video.createdAt)}</dd>
                  </div>
                </dl>
                {status(video)}
              </div>
            </div>
            <div className="mt-3 flex items-center justify-between border-zinc-200 border-t pt-2 dark:border-ink-700">
              <div className="flex items-center gap-2 text-sm">
                <SelectBox
                  id={`select-card-${video._id}`}
                  video={video}
                  selected={selected}
                  onToggle={onToggle}
                />
                <label htmlFor={`select-card-${video._id}`} aria-hidden="true">
                  Select
                </label>
              </div>
              <div className="flex gap-1">
                <EditButton video={video} onEdit={onEdit} />
                <DeleteButton video={video} onDelete={onDelete} />
              </div>
            </div>
          </li>
        ))}
      </ul>
    </>
  )
}

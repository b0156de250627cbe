// One file of the video form: a drop zone that is also the picker (the native input, visually
// hidden, keeps Enter/Space and screen readers), the types and limit it takes, and once a file
// is chosen its preview (object URL, never read into memory), name, size and a remove button.
// A caption file has no picture to preview: its name and size only.

import { captionFileAccept } from '@contract/captions.ts'
import { acceptedTypes, type FileKind, type FileMode, fileRuleSummary } from '@contract/index.ts'
import { type DragEvent, useEffect, useId, useMemo, useRef, useState } from 'react'
import { FieldError, Icons } from '../components/ui.tsx'
import { formatBytes } from '../lib/format.ts'
import { captionRuleSummary } from './caption-form-schema.ts'

interface FileFieldProps {
  kind: FileKind | 'captions'
  label: string
  mode: FileMode
  file: File | null | undefined
  /** What the video has now (edit form), shown while no new file is chosen. */
  currentUrl?: string
  error?: string
  /** A line about the chosen file, e.g. that it continues an unfinished upload. */
  note?: string
  disabled?: boolean
  onChoose: (file: File) => void
  onRemove: () => void
}

const hasFiles = (event: DragEvent) => [...event.dataTransfer.types].includes('Files')

const acceptOf = (kind: FileKind | 'captions') =>
  kind === 'captions' ? captionFileAccept : acceptedTypes(kind).join(',')
const rulesOf = (kind: FileKind | 'captions', mode: FileMode) =>
  kind === 'captions' ? captionRuleSummary : fileRuleSummary(kind, mode)

export function FileField({
  kind,
  label,
  mode,
  file,
  currentUrl,
  error,
  note,
  disabled,
  onChoose,
  onRemove,
}: FileFieldProps) {
  const id = useId()
  const ids = {
    input: `${id}-input`,
    legend: `${id}-legend`,
    instructions: `${id}-instructions`,
    rules: `${id}-rules`,
    error: `${id}-error`,
  }
  const input = useRef<HTMLInputElement>(null)
  // dragenter/dragleave fire for every child the pointer crosses: count them.
  const depth = useRef(0)
  const [dragging, setDragging] = useState(false)
  const pictured = kind !== 'captions'
  const url = useMemo(
    () => (pictured && file && !error ? URL.createObjectURL(file) : null),
    [pictured, file, error],
  )
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url])

  const previewUrl = url ?? (file ? null : currentUrl)
  const remove = () => {
    if (input.current) input.current.value = ''
    onRemove()
  }

  const onDragEnter = (event: DragEvent) => {
    if (disabled || !hasFiles(event)) return
    event.preventDefault()
    depth.current += 1
    setDragging(true)
  }
  const onDragOver = (event: DragEvent) => {
    if (disabled || !hasFiles(event)) return
    // Without this the browser would open the file instead of dropping it here.
    event.preventDefault()
    event.dataTransfer.dropEffect = 'copy'
  }
  const onDragLeave = () => {
    depth.current = Math.max(0, depth.current - 1)
    if (depth.current === 0) setDragging(false)
  }
  const onDrop = (event: DragEvent) => {
    depth.current = 0
    setDragging(false)
    if (disabled || !hasFiles(event)) return
    event.preventDefault()
    const dropped = event.dataTransfer.files[0]
    if (!dropped) return
    if (input.current) input.current.value = ''
    onChoose(dropped)
  }

  const describedBy = [ids.instructions, ids.rules, error ? ids.error : '']
    .filter(Boolean)
    .join(' ')

  return (
    <fieldset className="min-w-0">
      <legend id={ids.legend} className="mb-1 font-medium text-sm">
        {label}
      </legend>
      <label
        htmlFor={ids.input}
        data-drop-zone={kind}
        data-dragging={dragging || undefined}
        data-invalid={error ? true : undefined}
        data-disabled={disabled || undefined}
        onDragEnter={onDragEnter}
        onDragOver={onDragOver}
        onDragLeave={onDragLeave}
        onDrop={onDrop}
        className="flex min-h-28 cursor-pointer flex-col items-center justify-center gap-1 rounded-lg border-2 border-zinc-300 border-dashed bg-zinc-50 px-3 py-4 text-center text-sm transition-colors hover:border-amber-500 has-[input:focus-visible]:outline-2 has-[input:focus-visible]:outline-amber-500 has-[input:focus-visible]:outline-offset-2 data-disabled:cursor-not-allowed data-disabled:opacity-60 data-dragging:border-amber-500 data-dragging:bg-amber-50 data-invalid:border-red-500 dark:border-ink-500 dark:bg-ink-950 dark:data-dragging:bg-ink-800 dark:data-invalid:border-red-400"
      >
        <input
          ref={input}
          id={ids.input}
          type="file"
          accept={acceptOf(kind)}
          disabled={disabled}
          aria-labelledby={ids.legend}
          aria-describedby={describedBy}
          aria-invalid={error ? true : undefined}
          onChange={(event) => {
            const chosen = event.currentTarget.files?.[0]
            if (chosen) onChoose(chosen)
          }}
          className="sr-only"
        />
        <Icons.upload className="size-6 text-zinc-500 dark:text-zinc-400" />
        <span id={ids.instructions} className="block text-zinc-700 dark:text-zinc-200">
          {dragging ? (
            'Release to add this file'
          ) : (
            <>
              Drag a file here or{' '}
              <span className="font-medium text-amber-800 underline underline-offset-2 dark:text-accent">
                choose one
              </span>
            </>
          )}
        </span>
        <span id={ids.rules} className="block text-xs text-zinc-600 dark:text-zinc-400">
          {/* Types, then the limit: each part kept on one line. */}
          {rulesOf(kind, mode)
            .split(' · ')
            .map((part, i) => (
              <span key={part} className="whitespace-nowrap">
                {i > 0 ? ' · ' : ''}
                {part}
              </span>
            ))}
        </span>
      </label>
      <FieldError id={ids.error} message={error} />
      {file || previewUrl ? (
        <div className="mt-2 overflow-hidden rounded-lg border border-zinc-200 dark:border-ink-700">
          {pictured ? (
            <div className="flex aspect-video max-h-48 w-full items-center justify-center bg-zinc-100 dark:bg-ink-800">
              {previewUrl ? (
                kind === 'video' ? (
                  <video
                    src={previewUrl}
                    muted
                    playsInline
                    preload="metadata"
                    className="size-full object-cover"
                    aria-label={`${label} preview`}
                  />
                ) : (
                  <img
                    src={previewUrl}
                    alt={`${label} preview`}
                    className="size-full object-contain"
                  />
                )
              ) : (
                <span className="text-xs text-zinc-600 dark:text-zinc-400">No preview</span>
              )}
            </div>
          ) : null}
          <div className="space-y-1 p-2 text-sm">
            {file ? (
              <>
                {/* The whole name, wrapped (at hyphens first): a clipped name cannot be checked. */}
                <p className="font-medium wrap-anywhere" title={file.name}>
                  {file.name}
                </p>
                <div className="flex items-center justify-between gap-2">
                  <p className="text-zinc-600 dark:text-zinc-400">{formatBytes(file.size)}</p>
                  <button
                    type="button"
                    onClick={remove}
                    disabled={disabled}
                    aria-label={`Remove ${label.toLowerCase()}`}
                    className="-my-1 min-h-11 shrink-0 rounded-md px-3 text-red-700 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-amber-500 disabled:opacity-50 dark:text-red-400 dark:hover:bg-red-950"
                  >
                    Remove
                  </button>
                </div>
                {note ? <p className="text-amber-800 dark:text-accent">{note}</p> : null}
              </>
            ) : (
              <p className="text-zinc-600 dark:text-zinc-400">Current {label.toLowerCase()}</p>
            )}
          </div>
        </div>
      ) : null}
    </fieldset>
  )
}

// One file input of the video form with its preview (object URL, never read into memory),
// file name, size in MB, a remove button and its error.
import { useEffect, useId, useMemo, useRef } from 'react'
import { acceptedTypes, type FileKind } from '../../../../src/schemas/index.ts'
import { FieldError } from '../components/ui.tsx'
import { formatMB } from '../lib/format.ts'

interface FileFieldProps {
  kind: FileKind
  label: string
  file: File | null
  /** What the video has now (edit form), shown while no new file is chosen. */
  currentUrl?: string
  error?: string
  disabled?: boolean
  onChoose: (file: File | null) => void
  onRemove: () => void
}

export function FileField({
  kind,
  label,
  file,
  currentUrl,
  error,
  disabled,
  onChoose,
  onRemove,
}: FileFieldProps) {
  const id = useId()
  const input = useRef<HTMLInputElement>(null)
  const url = useMemo(() => (file && !error ? URL.createObjectURL(file) : null), [file, error])
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url])

  const previewUrl = url ?? (file ? null : currentUrl)
  const remove = () => {
    if (input.current) input.current.value = ''
    onRemove()
  }

  return (
    <div>
      <label htmlFor={id} className="mb-1 block font-medium text-sm">
        {label}
      </label>
      <input
        ref={input}
        id={id}
        type="file"
        accept={acceptedTypes(kind).join(',')}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => onChoose(event.currentTarget.files?.[0] ?? null)}
        className="block w-full cursor-pointer rounded-lg border border-zinc-300 border-dashed bg-white p-2 text-sm text-zinc-600 file:mr-3 file:cursor-pointer file:rounded-md file:border-0 file:bg-zinc-900 file:px-3 file:py-1.5 file:font-medium file:text-white hover:border-amber-500 focus-visible:outline-2 focus-visible:outline-amber-500 aria-invalid:border-red-500 dark:border-ink-700 dark:bg-ink-950 dark:text-zinc-300 dark:file:bg-accent dark:file:text-ink-950"
      />
      <FieldError id={`${id}-error`} message={error} />
      {file || previewUrl ? (
        <div className="mt-2 overflow-hidden rounded-lg border border-zinc-200 dark:border-ink-700">
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
              <span className="text-xs text-zinc-500">No preview</span>
            )}
          </div>
          <div className="flex items-center gap-2 p-2">
            <div className="min-w-0 flex-1 text-sm">
              {file ? (
                <>
                  <p className="truncate font-medium" title={file.name}>
                    {file.name}
                  </p>
                  <p className="text-zinc-500 dark:text-zinc-400">{formatMB(file.size)}</p>
                </>
              ) : (
                <p className="text-zinc-500 dark:text-zinc-400">Current {label.toLowerCase()}</p>
              )}
            </div>
            {file ? (
              <button
                type="button"
                onClick={remove}
                disabled={disabled}
                aria-label={`Remove ${label.toLowerCase()}`}
                className="rounded-md px-2 py-1 text-red-600 text-sm hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-amber-500 disabled:opacity-50 dark:text-red-400 dark:hover:bg-red-950"
              >
                Remove
              </button>
            ) : null}
          </div>
        </div>
      ) : null}
    </div>
  )
}

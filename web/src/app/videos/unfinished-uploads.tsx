// The offer to continue uploads this browser started and did not finish: which files, how far
// each got on the server, and that picking the same files again continues them.

import type { FileKind } from '@contract/index.ts'
import { useState } from 'react'
import { Button } from '../components/ui.tsx'
import { formatBytes } from '../lib/format.ts'
import type { UnfinishedUpload } from './tus-uploads.ts'

export const percentOf = (upload: Pick<UnfinishedUpload, 'offset' | 'size'>) =>
  upload.size > 0 ? Math.floor((upload.offset / upload.size) * 100) : 0

interface UnfinishedUploadsProps {
  uploads: UnfinishedUpload[]
  labels: Record<FileKind, string>
  onDiscard: () => Promise<void>
}

export function UnfinishedUploads({ uploads, labels, onDiscard }: UnfinishedUploadsProps) {
  const [discarding, setDiscarding] = useState(false)
  if (uploads.length === 0) return null
  return (
    <section
      aria-labelledby="unfinished-upload-title"
      className="mb-6 rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-950 sm:p-5 dark:border-amber-900 dark:bg-ink-900 dark:text-zinc-100"
    >
      <h2 id="unfinished-upload-title" className="font-semibold text-lg">
        Unfinished upload
      </h2>
      <p className="mt-1 text-sm">
        An upload from this browser did not finish. Choose the same files again and it continues
        where it stopped.
      </p>
      <ul className="mt-3 space-y-1 text-sm">
        {uploads.map((upload) => (
          <li key={upload.storageKey} className="break-all">
            <span className="font-medium">{labels[upload.kind]}:</span> {upload.filename} —{' '}
            <span className="tabular-nums">
              {formatBytes(upload.offset)} of {formatBytes(upload.size)} ({percentOf(upload)}%)
            </span>
          </li>
        ))}
      </ul>
      <Button
        variant="secondary"
        className="mt-3 min-h-11"
        disabled={discarding}
        onClick={() => {
          setDiscarding(true)
          void onDiscard().finally(() => setDiscarding(false))
        }}
      >
        {discarding ? 'Discarding...' : 'Discard unfinished upload'}
      </Button>
    </section>
  )
}

// A work's review links in the "Share privately…" dialog, newest first: what each is for, until
// when it works, whether it has a password, how often it was opened, and Revoke (asked once,
// inline, then in effect at once).
import type { ReviewLinkView } from '@contract/review-link.ts'
import { useRef, useState } from 'react'
import { focusWhenDrawn, InlineConfirm } from '../components/inline-confirm.tsx'
import { QueryState } from '../components/query-state.tsx'
import { Button } from '../components/ui.tsx'
import { toClientError } from '../lib/errors.ts'
import { formatDate } from '../lib/format.ts'
import { notify } from '../lib/notify.ts'
import { trpc } from '../trpc.ts'
import { expiryText, lastOpenedText, openCountText } from './review-link-text.ts'

export function ReviewLinkList({
  videoId,
  announce,
}: {
  videoId: string
  announce: (text: string) => void
}) {
  // Always asked again when the dialog opens: opens by clients change the counts meanwhile.
  const links = trpc.reviewLinks.list.useQuery({ videoId }, { staleTime: 0 })

  return (
    <section aria-labelledby="share-links-heading" aria-busy={links.isFetching}>
      <h3 id="share-links-heading" className="mb-2 font-semibold">
        Links to this work
      </h3>
      <QueryState
        query={links}
        loading="Loading links"
        failed="Failed to load the links"
        empty={{ when: (list) => list.length === 0, text: 'No links yet' }}
        compact
      >
        {(list) => (
          <ul className="space-y-2">
            {list.map((link) => (
              <LinkRow key={link.id} link={link} announce={announce} />
            ))}
          </ul>
        )}
      </QueryState>
    </section>
  )
}

function LinkRow({ link, announce }: { link: ReviewLinkView; announce: (text: string) => void }) {
  const utils = trpc.useUtils()
  const revoke = trpc.reviewLinks.revoke.useMutation()
  const [asking, setAsking] = useState(false)
  const row = useRef<HTMLLIElement>(null)
  const name = link.note ?? 'link with no note'

  const confirm = async () => {
    try {
      await revoke.mutateAsync({ videoId: link.videoId, linkId: link.id })
      const revokedAt = new Date().toISOString()
      utils.reviewLinks.list.setData({ videoId: link.videoId }, (old) =>
        old?.map((l) => (l.id === link.id ? { ...l, state: 'revoked' as const, revokedAt } : l)),
      )
      void utils.reviewLinks.list.invalidate({ videoId: link.videoId })
      notify.success('Link revoked')
      announce('Link revoked')
      setAsking(false)
      // Its buttons are gone: focus stays on the row that now says Revoked.
      row.current?.focus()
    } catch (err) {
      const message = toClientError(err).message || 'Failed to revoke the link'
      notify.error(message)
      announce(message)
    }
  }

  const active = link.state === 'active'
  return (
    <li
      ref={row}
      tabIndex={-1}
      className="flex flex-col gap-2 rounded-lg border border-zinc-200 p-3 outline-none focus-visible:ring-2 focus-visible:ring-amber-500 sm:flex-row sm:items-center sm:justify-between dark:border-ink-700"
    >
      <div className="min-w-0">
        <p className="break-words font-medium">
          {link.note ?? (
            <span className="font-normal text-zinc-500 italic dark:text-zinc-400">No note</span>
          )}
        </p>
        <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-zinc-600 dark:text-zinc-300">
          <span className={active ? undefined : 'font-medium text-red-700 dark:text-red-400'}>
            {expiryText(link)}
          </span>
          {link.hasPassword ? (
            <span className="rounded-full bg-zinc-100 px-2 py-0.5 text-xs text-zinc-700 dark:bg-ink-800 dark:text-zinc-200">
              Password
            </span>
          ) : null}
          <span title={link.lastOpenedAt ? formatDate(link.lastOpenedAt) : undefined}>
            {lastOpenedText(link.lastOpenedAt, new Date())}
          </span>
          {link.openCount > 0 ? <span>{openCountText(link.openCount)}</span> : null}
        </p>
      </div>
      {active && !asking ? (
        <Button
          variant="secondary"
          className="min-h-11 shrink-0 self-start text-red-700 sm:self-auto dark:text-red-400"
          aria-label={`Revoke ${name}`}
          onClick={() => {
            setAsking(true)
            focusWhenDrawn(row, '[data-keep]')
          }}
        >
          Revoke
        </Button>
      ) : null}
      {active && asking ? (
        <InlineConfirm
          question="Revoke now? It stops working at once."
          action="Revoke link"
          busyLabel="Revoking..."
          busy={revoke.isPending}
          onKeep={() => setAsking(false)}
          onConfirm={() => void confirm()}
        />
      ) : null}
    </li>
  )
}

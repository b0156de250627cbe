// Activity (docs/decisions/042-activity-log-one-middleware-one-table.md): what admins did, newest
// first, filtered by person and kind. Super admins only: the route's beforeLoad shows
// ActivityNotAllowed to anyone else (router.tsx), and the server enforces it (activity.list is a
// superAdminProcedure).

import { ACTIVITY_PAGE_SIZE, type ActivityKind, activityKinds } from '@contract/activity.ts'
import { keepPreviousData } from '@tanstack/react-query'
import { useId, useState } from 'react'
import type { ActivityEntry } from '../../api.ts'
import { NotAllowed } from '../components/not-allowed.tsx'
import { PageHeader } from '../components/page-header.tsx'
import { Pagination } from '../components/pagination.tsx'
import { Card, inputStyles, Spinner } from '../components/ui.tsx'
import { toClientError } from '../lib/errors.ts'
import { formatDate } from '../lib/format.ts'
import { trpc } from '../trpc.ts'

const NOT_ALLOWED = 'Only a super admin can see the activity log.'
const kindLabel = (kind: string) => activityKinds[kind as ActivityKind] ?? kind

export function ActivityNotAllowed() {
  return <NotAllowed message={NOT_ALLOWED} />
}

export function ActivityPage() {
  const [page, setPage] = useState(1)
  const [actor, setActor] = useState('')
  const [kind, setKind] = useState('')
  const list = trpc.activity.list.useQuery(
    {
      page,
      limit: ACTIVITY_PAGE_SIZE,
      ...(actor ? { actor } : {}),
      ...(kind ? { kind: kind as ActivityKind } : {}),
    },
    { placeholderData: keepPreviousData },
  )
  const people = trpc.activity.people.useQuery()
  const personId = useId()
  const kindId = useId()

  if (list.isError && toClientError(list.error).kind === 'forbidden') return <ActivityNotAllowed />

  const filter = (set: (value: string) => void) => (e: React.ChangeEvent<HTMLSelectElement>) => {
    set(e.target.value)
    setPage(1)
  }

  let body: React.ReactNode
  if (list.isPending) {
    body = (
      <div className="flex justify-center py-16">
        <Spinner label="Loading activity" />
      </div>
    )
  } else if (list.isError) {
    body = (
      <p role="alert" className="p-6 text-center text-red-600 dark:text-red-400">
        {toClientError(list.error).message || 'Something went wrong'}
      </p>
    )
  } else if (list.data.entries.length === 0) {
    body = (
      <p className="p-8 text-center text-zinc-500 dark:text-zinc-400">
        {actor || kind ? 'Nothing matches these filters.' : 'No activity yet.'}
      </p>
    )
  } else {
    body = <Entries entries={list.data.entries} dim={list.isPlaceholderData} />
  }

  const totalPages = list.data?.totalPages ?? 1
  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader title="Activity" crumb="Activity" />
      <Card className="p-4 sm:p-5">
        <div className="mb-4 flex flex-wrap items-end gap-4">
          <div className="min-w-48 flex-1 sm:flex-none">
            <label htmlFor={personId} className="mb-1 block font-medium text-sm">
              Person
            </label>
            <select id={personId} className={inputStyles} value={actor} onChange={filter(setActor)}>
              <option value="">Everyone</option>
              {people.data?.people.map((p) => (
                <option key={p._id} value={p._id}>
                  {p.name}
                </option>
              ))}
              <option value="anonymous">Not signed in</option>
            </select>
          </div>
          <div className="min-w-48 flex-1 sm:flex-none">
            <label htmlFor={kindId} className="mb-1 block font-medium text-sm">
              Kind
            </label>
            <select id={kindId} className={inputStyles} value={kind} onChange={filter(setKind)}>
              <option value="">All kinds</option>
              {Object.entries(activityKinds).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          <p className="ml-auto text-sm text-zinc-500 dark:text-zinc-400" aria-live="polite">
            {list.data ? `${list.data.total} ${list.data.total === 1 ? 'entry' : 'entries'}` : ''}
          </p>
        </div>
        {body}
        {totalPages > 1 ? (
          <div className="mt-4">
            <Pagination page={page} totalPages={totalPages} onChange={setPage} />
          </div>
        ) : null}
      </Card>
    </div>
  )
}

type Entry = ActivityEntry

function Entries({ entries, dim }: { entries: Entry[]; dim: boolean }) {
  const who = (e: Entry) => e.actor.name ?? 'N/A'
  return (
    <div className={dim ? 'opacity-60 transition-opacity' : 'transition-opacity'}>
      <table className="hidden w-full text-left text-sm lg:table">
        <caption className="sr-only">Activity, newest first</caption>
        <thead className="border-zinc-200 border-b text-xs text-zinc-500 uppercase tracking-wide dark:border-ink-700 dark:text-zinc-400">
          <tr>
            <th scope="col" className="px-3 py-3">
              When
            </th>
            <th scope="col" className="px-3 py-3">
              Who
            </th>
            <th scope="col" className="px-3 py-3">
              What
            </th>
            <th scope="col" className="px-3 py-3">
              Details
            </th>
            <th scope="col" className="px-3 py-3">
              From
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-200 dark:divide-ink-700">
          {entries.map((e) => (
            <tr key={e._id}>
              <td className="whitespace-nowrap px-3 py-3 text-zinc-600 dark:text-zinc-300">
                {formatDate(e.at)}
              </td>
              <td className="px-3 py-3 font-medium">{who(e)}</td>
              <td className="whitespace-nowrap px-3 py-3">{kindLabel(e.kind)}</td>
              <td className="px-3 py-3 text-zinc-700 dark:text-zinc-200">{e.summary}</td>
              <td className="whitespace-nowrap px-3 py-3 font-mono text-xs text-zinc-600 dark:text-zinc-300">
                {e.ip ?? 'N/A'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ul className="space-y-3 lg:hidden">
        {entries.map((e) => (
          <li key={e._id} className="rounded-xl border border-zinc-200 p-3 dark:border-ink-700">
            <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
              <p className="font-medium">{kindLabel(e.kind)}</p>
              <p className="text-xs text-zinc-600 dark:text-zinc-300">{formatDate(e.at)}</p>
            </div>
            <p className="mt-1 break-words text-sm text-zinc-700 dark:text-zinc-200">{e.summary}</p>
            <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-300">
              {who(e)} · <span className="font-mono">{e.ip ?? 'N/A'}</span>
            </p>
          </li>
        ))}
      </ul>
    </div>
  )
}
